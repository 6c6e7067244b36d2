import AudioSessionModel
import AudioSessionRuntime
import FoundationEssentials

/// T1: the system mode's app manifests, one YAML file per app in a directory owned by root:
///
/// ```yaml
/// app: com.example.radio
/// capabilities: [background-audio, now-playing]
/// ```
///
/// An app without a manifest has no capability; a hello declaring more than its manifest grants
/// is refused with `ent?`.
public enum ManifestDirectory {
    /// Every `*.yaml` (or `*.yml`) file of the directory, by app id.
    /// - Throws: `ConfigurationError` for a directory or file not root's or writable by others,
    ///   a malformed file, an invalid app id (T3) or an app given by two files.
    public static func read(_ directory: String) throws(ConfigurationError) -> [AppID: AppManifest] {
        try TrustedFile.check(directory, what: "the manifest directory", directory: true, rootOnly: true)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw ConfigurationError("cannot list the manifest directory \(directory): \(error)")
        }
        var manifests: [AppID: AppManifest] = [:]
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let (app, manifest) = try readOne(path)
            if let earlier = manifests[app] {
                throw ConfigurationError("\(path): app \(app) already has a manifest, \(earlier.source)")
            }
            manifests[app] = manifest
        }
        return manifests
    }

    static func readOne(_ path: String) throws(ConfigurationError) -> (AppID, AppManifest) {
        try TrustedFile.check(path, what: "the manifest", rootOnly: true)
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigurationError("cannot read the manifest \(path): \(error)")
        }
        let fields = YAMLFields(file: path)
        guard let root = try fields.document(text) else { throw ConfigurationError("\(path): the manifest is empty") }
        let values = try fields.mapping(root, "the manifest", known: ["app", "capabilities"])
        guard let appNode = values["app"] else {
            throw fields.error("the manifest names no app (app: com.example.name)", at: root)
        }
        let app = AppID(try fields.string(appNode, "app"))
        if let problem = app.problem { throw fields.error("app: \(problem)", at: appNode) }
        var capabilities: AppCapabilities = []
        for item in try fields.list(values["capabilities"], "capabilities") {
            let name = try fields.string(item, "capabilities")
            guard let capability = AppCapabilities(name: name) else {
                throw fields.error("capabilities: '\(name)' is not one; known: background-audio, now-playing", at: item)
            }
            capabilities.insert(capability)
        }
        return (app, AppManifest(capabilities: capabilities, source: path))
    }
}
