import Foundation

/// A regular file's identity on disk (device and inode), so that two paths naming one file are
/// seen as one whatever their spelling (`./a`, `a`, a symlink, a hard link).
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The identity of the regular file at `path`, or nil when there is none (the path does not
    /// exist yet, or names a directory, a device such as `/dev/null`, a FIFO or standard input `-`).
    public init?(path: String) {
        guard path != "-" else { return nil }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The first pair of roles whose paths name the same regular file, checked in order: each
    /// output against every input and against the outputs before it.
    /// - Parameters:
    ///   - inputs: files the run reads, as (role, path), e.g. ("--history", "day.jsonl").
    ///   - outputs: files the run writes, as (role, path).
    /// - Returns: (output role and path, the other role and path), or nil when all differ.
    /// - Complexity: O((inputs + outputs)^2) `stat` comparisons, made once per run.
    public static func firstClash(inputs: [(role: String, path: String)], outputs: [(role: String, path: String)])
        -> (written: (role: String, path: String), other: (role: String, path: String))? {
        let seen = inputs.compactMap { i in FileIdentity(path: i.path).map { ($0, i) } }
        var earlier: [(FileIdentity, (role: String, path: String))] = []
        for o in outputs {
            guard let id = FileIdentity(path: o.path) else { continue }
            if let hit = (seen + earlier).first(where: { $0.0 == id }) { return (o, hit.1) }
            earlier.append((id, o))
        }
        return nil
    }
}
