import Foundation
import XCTest

/// Runs the built `geocampaign` binary and captures stdout, stderr and the exit status.
struct BinaryRunner {
    struct Result {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The repository root (tests run with any working directory).
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("geocampaign")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("geocampaign")
    }

    /// Runs the binary with `args` in `cwd` (default: the repository root), feeding `stdin`.
    static func run(_ args: [String], cwd: URL? = nil, stdin: Data? = nil) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        p.currentDirectoryURL = cwd ?? root
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // stderr is read on another thread while stdout is read here, so neither pipe fills up.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        return Result(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                      status: p.terminationStatus)
    }

    /// Whether process `pid` has `path` open (through `/proc/PID/fd`; false where there is none):
    /// tests that change a file while a run reads it wait for this first.
    static func hasOpen(_ pid: Int32, _ path: String) -> Bool {
        let fds = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: fds) else { return false }
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)) == path }
    }
}
