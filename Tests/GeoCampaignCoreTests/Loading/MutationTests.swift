import XCTest
@testable import GeoCampaignCore

/// Seeded random edits of the conformance campaigns (deleted and inserted characters, swapped and
/// repeated lines): the loader never crashes, and every problem has a position in its file.
final class LoadingMutationTests: XCTestCase {
    private struct LCG {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(n, 1)))
        }
    }

    func testMutatedCampaignsNeverCrash() throws {
        let source = LoadingConformanceTests.campaignsDir
        try XCTSkipUnless(FileManager.default.fileExists(atPath: source), "conformance examples not present")
        let dir = NSTemporaryDirectory() + "geocampaign-mut-" + UUID().uuidString
        // Keep imports reachable: campaigns/../regions.
        try FileManager.default.createDirectory(atPath: dir + "/campaigns", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source + "/../regions", toPath: dir + "/regions")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        let originals = try names.map { try String(contentsOfFile: source + "/" + $0, encoding: .utf8) }
        let alphabet = Array("[]{}:-,'\"\t #&*!|>%@`?\n0a")
        var rng = LCG(state: 2026)
        var withErrors = 0
        for round in 0..<1500 {
            let k = rng.next(originals.count)
            var lines = originals[k].components(separatedBy: "\n")
            for _ in 0...rng.next(3) {
                let li = rng.next(lines.count)
                var chars = Array(lines[li])
                switch rng.next(5) {
                case 0: if !chars.isEmpty { chars.remove(at: rng.next(chars.count)) }
                case 1: chars.insert(alphabet[rng.next(alphabet.count)], at: rng.next(chars.count + 1))
                case 2: lines.swapAt(li, rng.next(lines.count))
                case 3: lines.insert(lines[li], at: li)
                default: if !chars.isEmpty { chars[rng.next(chars.count)] = alphabet[rng.next(alphabet.count)] }
                }
                if li < lines.count, chars != Array(lines[li]) { lines[li] = String(chars) }
            }
            let path = dir + "/campaigns/m\(round % 7).yaml"
            try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
            let r = CampaignLoader().load(paths: [path])
            if r.hasErrors { withErrors += 1 }
            for d in r.diagnostics {
                XCTAssertGreaterThanOrEqual(d.line, 1, "\(round): \(d)")
                XCTAssertGreaterThanOrEqual(d.column, 1, "\(round): \(d)")
                XCTAssertFalse(d.message.isEmpty)
            }
        }
        print("mutations: \(withErrors) of 1500 had errors")
        XCTAssertGreaterThan(withErrors, 500)
    }
}
