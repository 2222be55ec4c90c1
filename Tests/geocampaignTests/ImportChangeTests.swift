import Foundation
import XCTest

/// A large GeoJSON import is mapped, not read (`MappedFile`): another program cutting it short or
/// writing it while a run loads it gives an error naming the import (exit 65), never a crash
/// (SIGBUS on a page past the new end) nor regions from a mix of two files.
final class ImportChangeTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-import-change-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    /// About 12 MB of polygons (well over the 4 MiB from which imports are mapped).
    private static let geojson: Data = {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        var k = 0
        while text.utf8.count < 12_000_000 {
            let lon = -122.5 + Double(k % 300) * 0.001, lat = 37.7 + Double(k / 300 % 300) * 0.001
            var ring: [String] = []
            for v in 0..<24 {
                let a = Double(v) / 24 * 2 * Double.pi
                ring.append("[\(lon + 0.0003 * cos(a)),\(lat + 0.0003 * sin(a))]")
            }
            ring.append(ring[0])
            text += (k == 0 ? "" : ",\n") + "{\"type\":\"Feature\",\"id\":\"p\(k)\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring.joined(separator: ","))]]}}"
            k += 1
        }
        text += "\n]}\n"
        return Data(text.utf8)
    }()

    private static let campaign = """
        campaign: places
        regions:
          - import: places.geojson
            tags: [place]
        rules:
          - id: at-a-place
            when: { inside: { tags: [place] } }
            offer: hello
        offers:
          - id: hello

        """

    /// Runs `validate` on the campaign, and once the process has the import open waits
    /// `delayMs` and applies `change` to the import; returns how the run ended and its stderr.
    private func runChanging(_ attempt: Int, delayMs: Int, _ change: (String) throws -> Void) throws -> (Process.TerminationReason, Int32, String) {
        let sub = dir.appendingPathComponent("a\(attempt)")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let path = sub.appendingPathComponent("places.geojson").path
        try Self.geojson.write(to: URL(fileURLWithPath: path))
        try Self.campaign.write(to: sub.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = BinaryRunner.binary
        p.arguments = ["validate", "c.yaml"]
        p.currentDirectoryURL = sub
        let err = sub.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        var waited = 0
        while p.isRunning && !BinaryRunner.hasOpen(p.processIdentifier, path) && waited < 50_000 {
            usleep(100)
            waited += 1
        }
        usleep(useconds_t(delayMs * 1000))
        try change(path)
        p.waitUntilExit()
        return (p.terminationReason, p.terminationStatus, (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    func testAnImportChangedWhileLoadedIsAnErrorNotACrash() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc to see when the file is open")
        try XCTSkipIf(ProcessInfo.processInfo.environment["GEOCAMPAIGN_READ_IMPORTS"] == "1", "imports are read, not mapped")
        // The control: the file left alone loads.
        let (reason0, status0, stderr0) = try runChanging(0, delayMs: 0) { _ in }
        XCTAssertEqual(reason0, .exit)
        XCTAssertEqual(status0, 0, stderr0)

        var changedSeen = 0
        let changes: [(String, Int, (String) throws -> Void)] = [
            ("cut to a third", 0, { XCTAssertEqual(truncate($0, 4_000_000), 0) }),
            ("cut to a third", 2, { XCTAssertEqual(truncate($0, 4_000_000), 0) }),
            ("cut to nothing", 5, { XCTAssertEqual(truncate($0, 0), 0) }),
            ("cut short by a page", 10, { XCTAssertEqual(truncate($0, off_t(Self.geojson.count - 5_000)), 0) }),
            ("written in place", 3, { path in
                let h = try XCTUnwrap(FileHandle(forWritingAtPath: path))
                try h.seek(toOffset: 6_000_000)
                try h.write(contentsOf: Data("]]]]]]".utf8))
                try h.close()
            }),
        ]
        for (k, (what, delay, change)) in changes.enumerated() {
            let (reason, status, stderr) = try runChanging(k + 1, delayMs: delay, change)
            XCTAssertEqual(reason, .exit, "\(what): stopped by signal \(status)\n\(stderr)")
            XCTAssertTrue([0, 65].contains(status), "\(what): exit \(status)\n\(stderr)")
            if status == 65 {
                XCTAssertTrue(stderr.contains("the import 'places.geojson'"), "\(what): \(stderr)")
                if stderr.contains("changed while it was read") { changedSeen += 1 }
            }
        }
        // The load of 12 MB takes far longer than the delays: most changes land during the parse.
        XCTAssertGreaterThan(changedSeen, 0, "no change was seen while the import was read")

        // Replaced by a rename while loading (the safe way to write a file): the run loads the
        // file it opened, whole, and succeeds.
        let (reason, status, stderr) = try runChanging(changes.count + 1, delayMs: 2) { path in
            let fresh = path + ".new"
            try Self.geojson.write(to: URL(fileURLWithPath: fresh))
            XCTAssertEqual(rename(fresh, path), 0)
        }
        XCTAssertEqual(reason, .exit)
        XCTAssertEqual(status, 0, "replaced by a rename: \(stderr)")
    }
}
