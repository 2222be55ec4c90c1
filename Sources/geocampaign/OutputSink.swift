import Foundation

/// A buffered byte sink on stdout or a file.
final class OutputSink {
    private let handle: UnsafeMutablePointer<FILE>
    private let ownsHandle: Bool
    private let path: String

    /// Opens `path` for writing, or stdout when nil.
    init(path: String?) throws {
        if let path {
            guard let f = fopen(path, "wb") else { throw CLIError(message: "\(path): cannot be written: \(String(cString: strerror(errno)))", code: .failure) }
            handle = f
            ownsHandle = true
            self.path = path
        } else {
            handle = stdout
            ownsHandle = false
            self.path = "stdout"
        }
    }

    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        if n != bytes.count { throw CLIError(message: "\(path): write failed: \(String(cString: strerror(errno)))", code: .failure) }
    }

    func write(_ s: String) throws { try write(Array(s.utf8)) }

    func close() throws {
        if fflush(handle) != 0 { throw CLIError(message: "\(path): write failed: \(String(cString: strerror(errno)))", code: .failure) }
        if ownsHandle { fclose(handle) }
    }
}
