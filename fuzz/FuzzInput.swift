import Foundation

/// What every fuzz target shares: the input as bytes, and a private folder for targets whose
/// entry point reads files (the campaign loader, GeoJSON imports).
enum FuzzInput {
    /// The input libFuzzer hands over.
    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// A folder of this process, made once: `$FUZZ_TMP` (fuzz/run.sh makes one and removes it
    /// after the run), else one in /dev/shm (or the temporary folder) removed at exit.
    static let folder: String = {
        if let given = ProcessInfo.processInfo.environment["FUZZ_TMP"], !given.isEmpty {
            try? FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
            return given
        }
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/geocampaign-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzInput.folder) }
        return path
    }()

    /// Writes `bytes` to `name` in `folder` and returns its path.
    static func write(_ bytes: [UInt8], as name: String) -> String {
        let path = folder + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
