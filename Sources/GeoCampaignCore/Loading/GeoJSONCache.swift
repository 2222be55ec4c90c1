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
            return .failure(ValueError("no such file"))
        }
        if isDir.boolValue { return .failure(ValueError("it is a folder, not a file")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > maxBytes {
            return .failure(ValueError("the file is larger than 256 MiB"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ValueError("the file cannot be read (check its permissions)"))
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? "it is not valid JSON"
            return .failure(ValueError("it is not valid JSON (\(detail))"))
        }
        guard let obj = json as? [String: Any] else {
            return .failure(ValueError("it is not a GeoJSON FeatureCollection (the top level is not an object)"))
        }
        return .success(obj)
    }
}
