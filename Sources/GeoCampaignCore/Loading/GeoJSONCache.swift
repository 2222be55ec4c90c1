import Foundation

/// Reads GeoJSON import files once per load, however many campaigns import them.
final class GeoJSONCache {
    /// Largest import file read.
    static let maxBytes = 256 * 1024 * 1024

    private var cache: [String: Result<[String: Any], ValueError>] = [:]

    /// The top-level JSON object of the file at `path`, or why it cannot be had.
    func object(at path: String) -> Result<[String: Any], ValueError> {
        if let r = cache[path] { return r }
        let r = Self.read(path)
        cache[path] = r
        return r
    }

    private static func read(_ path: String) -> Result<[String: Any], ValueError> {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return .failure(ValueError("cannot be found at \(path): check the path, which is relative to this YAML file"))
        }
        if isDir.boolValue { return .failure(ValueError("is a folder, not a GeoJSON file")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > maxBytes {
            return .failure(ValueError("is larger than 256 MiB: split it into several imports"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ValueError("cannot be read: check its permissions"))
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
            return .failure(ValueError("is not valid JSON\(place(detail, in: data)): fix the file or export it again as GeoJSON"))
        }
        guard let obj = json as? [String: Any] else {
            return .failure(ValueError("is not a GeoJSON FeatureCollection (its top level is not an object)"))
        }
        return .success(obj)
    }

    /// " (line L, column C)" for a JSON error message that names a character offset.
    private static func place(_ detail: String, in data: Data) -> String {
        guard let r = detail.range(of: "character ") else { return "" }
        let digits = detail[r.upperBound...].prefix { $0.isNumber }
        guard let offset = Int(digits) else { return "" }
        var line = 1, column = 1
        for (i, b) in data.enumerated() {
            if i >= offset { break }
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return " (line \(line), column \(column))"
    }
}
