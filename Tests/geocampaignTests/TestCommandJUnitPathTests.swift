import Foundation
import XCTest

/// `geocampaign test --junit FILE` never destroys what it reads and never replaces what is not a
/// regular file (issue 10 items 9 and 10 for the code of issue 12): a `--junit` that is a test,
/// campaign or history file of the run is refused (exit 64, both named) and left as it was; a
/// symbolic link stays a link; a device is written in place; a folder is an error that says so.
final class TestCommandJUnitPathTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("gc-junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let data = BinaryRunner.root.appendingPathComponent("Tests/Data/CampaignTests")
        try FileManager.default.copyItem(at: data.appendingPathComponent("campaigns/shapes.yaml"), to: dir.appendingPathComponent("shapes.yaml"))
        try FileManager.default.copyItem(at: data.appendingPathComponent("campaigns/twin-parks.geojson"), to: dir.appendingPathComponent("twin-parks.geojson"))
        try "{\"user\":\"ada\",\"ts\":\"2012-12-14T09:00:00Z\",\"lat\":47.37,\"lon\":8.54}\n".write(to: dir.appendingPathComponent("h.jsonl"), atomically: true, encoding: .utf8)
        try """
        campaigns: [shapes.yaml]
        cases:
          - name: one
            history:
              - stay: { user: ada, at: fountain, from: 2012-12-14 10:00, for: 15m }
              - file: h.jsonl
            expect:
              - visit: { user: ada, region: fountain }

        """.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func contents(_ name: String) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(name)) }

    func testAJUnitPathThatIsAnInputIsRefusedAndTheInputKept() throws {
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.yaml").path, withDestinationPath: "t.yaml")
        // Failed before: each of these was replaced by the XML, exit 0.
        for (target, named) in [("t.yaml", "the test file 't.yaml'"), ("link.yaml", "the test file 't.yaml'"),
                                ("shapes.yaml", "the campaign or history file of t.yaml 'shapes.yaml'"),
                                ("h.jsonl", "the campaign or history file of t.yaml 'h.jsonl'")] {
            let before = try contents(target)
            let r = try BinaryRunner.run(["test", "t.yaml", "--junit", target], cwd: dir)
            XCTAssertEqual(r.status, 64, target + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("error: --junit '\(target)' is the same file as \(named): refusing to overwrite it; name another file\n"), r.stderr)
            XCTAssertEqual(try contents(target), before, target)
        }
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.yaml").path)
        XCTAssertEqual(link, "t.yaml")
    }

    func testAJUnitLinkStaysALinkAndAFolderIsAnError() throws {
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("report.xml").path, withDestinationPath: "real.xml")
        let r = try BinaryRunner.run(["test", "t.yaml", "--junit", "report.xml"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        // Failed before: the link was replaced by a regular file.
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("report.xml").path), "real.xml")
        XCTAssertTrue(String(decoding: try contents("real.xml"), as: UTF8.self).hasPrefix("<?xml"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let folder = try BinaryRunner.run(["test", "t.yaml", "--junit", "folder"], cwd: dir)
        XCTAssertEqual(folder.status, 1)
        // Failed before: "Error Domain=NSCocoaErrorDomain Code=512 "(null)"".
        XCTAssertEqual(folder.stderr, "error: folder: cannot be written: Is a directory\n")
    }

    func testAJUnitDeviceIsWrittenInPlaceNotReplaced() throws {
        // A FIFO stands for a device here (replacing /dev/full itself, as the old code did when
        // run as root, must not be tried in a test): it must stay a FIFO and get the XML.
        let fifo = dir.appendingPathComponent("ci.pipe").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let r = try BinaryRunner.run(["test", "t.yaml", "--junit", fifo], cwd: dir)
        let xml = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(xml.hasPrefix("<?xml"), xml)
        var st = stat()
        XCTAssertEqual(stat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
    }
}
