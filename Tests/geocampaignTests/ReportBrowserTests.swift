import Foundation
import XCTest

/// The HTML report of the bundled example opened in a real browser: headless Chromium (Debian's
/// `chromium`, which .ci/run installs), driven by scripts/report_browser_check.py over the
/// DevTools pipe. Skipped, with a message, only when Chromium is not installed.
final class ReportBrowserTests: XCTestCase {
    /// The first of the usual Chromium commands found on PATH.
    static func find(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for dir in path.split(separator: ":") {
                let p = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: p) { return p }
            }
        }
        return nil
    }

    private func runTool(_ args: [String]) throws -> (String, Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        p.currentDirectoryURL = BinaryRunner.root
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), p.terminationStatus)
    }

    func testTheBundledExampleReportInHeadlessChromium() throws {
        guard let chromium = Self.find(["chromium", "chromium-browser", "google-chrome"]) else {
            throw XCTSkip("Chromium is not installed, so the HTML report is not opened in a browser (Debian: apt-get install chromium; .ci/run installs it)")
        }
        let python = try XCTUnwrap(Self.find(["python3"]), "python3 runs the browser check (.ci/run installs it)")
        let dir = BinaryRunner.root.appendingPathComponent(".build/report-browser")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let html = dir.appendingPathComponent("report.html"), json = dir.appendingPathComponent("report.json")
        let regions = dir.appendingPathComponent("regions.geojson")
        for (args, file) in [(["report", "--history", "examples/visits.jsonl"], html),
                             (["report", "--history", "examples/visits.jsonl", "--format", "json"], json),
                             (["regions", "campaigns", "--geojson"], regions)] {
            let r = try BinaryRunner.run(args + ["--output", file.path] + (args[0] == "report" ? ["--quiet"] : []))
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        let script = BinaryRunner.root.appendingPathComponent("scripts/report_browser_check.py").path
        let (selfTest, selfStatus) = try runTool([python, script, "--chromium", chromium, "--self-test"])
        XCTAssertEqual(selfStatus, 0, "the request detector must catch a page that makes a request:\n\(selfTest)")
        let (out, status) = try runTool([python, script, "--chromium", chromium, "--html", html.path, "--regions", regions.path,
                                         "--report", json.path, "--screenshot", dir.appendingPathComponent("laptop.png").path,
                                         "--phone-screenshot", dir.appendingPathComponent("phone.png").path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("ok    no network request") && out.contains("ok    one SVG shape per region"), out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("laptop.png").path))
    }
}
