import XCTest
@testable import GeoCampaignCore

/// Runs the parser over every case of the yaml-test-suite (unpacked to a temporary folder): no
/// crash, every problem at a real position, valid single-document cases parsed.
final class LoadingYAMLTestSuiteTests: XCTestCase {
    static let tarball = TestData.path("yaml-test-suite/yaml-test-suite-data-2022-01-17.tar.gz")

    func testNoCrashAndSensiblePositions() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.tarball), "yaml-test-suite not present")
        let dir = NSTemporaryDirectory() + "geocampaign-yts-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "xzf", Self.tarball, "-C", dir]
        try tar.run()
        tar.waitUntilExit()
        XCTAssertEqual(tar.terminationStatus, 0)
        let root = dir + "/yaml-test-suite-data"
        var cases: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let d = root + "/" + name
            if FileManager.default.fileExists(atPath: d + "/in.yaml") {
                cases.append(d)
            } else if let subs = try? FileManager.default.contentsOfDirectory(atPath: d) {
                cases += subs.sorted().map { d + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0 + "/in.yaml") }
            }
        }
        XCTAssertGreaterThan(cases.count, 300)
        var parsedValid = 0, validSingle = 0, rejectedInvalid = 0, invalid = 0
        for c in cases {
            guard let data = FileManager.default.contents(atPath: c + "/in.yaml") else { continue }
            let bytes = [UInt8](data)
            let lineCount = bytes.filter { $0 == 0x0A }.count + 1
            let parser = YAMLParser(bytes: bytes)
            let isError = FileManager.default.fileExists(atPath: c + "/error")
            let events = (try? String(contentsOfFile: c + "/test.event", encoding: .utf8)) ?? ""
            let docs = events.components(separatedBy: "\n").filter { $0.hasPrefix("+DOC") }.count
            do {
                _ = try parser.parse()
                if !isError && docs == 1 { parsedValid += 1 }
            } catch {
                XCTAssertGreaterThanOrEqual(error.mark.line, 1, c)
                XCTAssertLessThanOrEqual(error.mark.line, lineCount + 1, c)
                XCTAssertGreaterThanOrEqual(error.mark.column, 1, c)
                XCTAssertFalse(error.message.isEmpty)
                if isError { rejectedInvalid += 1 }
            }
            if isError { invalid += 1 }
            if !isError && docs == 1 { validSingle += 1 }
            // The whole loader as well: every diagnostic has a position and a source line.
            let r = CampaignLoader().load(paths: [c + "/in.yaml"])
            for d in r.diagnostics {
                XCTAssertGreaterThanOrEqual(d.line, 1, c)
                XCTAssertNotNil(d.sourceLine, c)
            }
        }
        print("yaml-test-suite: \(cases.count) cases; \(parsedValid) of \(validSingle) valid single-document cases parsed; \(rejectedInvalid) of \(invalid) invalid cases rejected")
        // libyaml (YAML 1.1) rejects some valid 1.2 cases (tabs as separation, directives) and
        // campaign files forbid non-text keys; on the 2022-01-17 data 417 of 515 parse and 151
        // of 172 invalid cases are rejected.
        XCTAssertGreaterThanOrEqual(parsedValid, 400)
        XCTAssertGreaterThanOrEqual(rejectedInvalid, 140)
    }
}
