import AudioSession
import CImageCodec
import Foundation

/// UIKit's image (the UIKit package, Porting/UIKit), as much as ported audio code uses: artwork for Now Playing loaded from the app's
/// resources, a file or data; its size; its PNG and JPEG data. Images are read and written through
/// FFmpeg's libavcodec and libswscale (Debian's): PNG, JPEG, WebP, GIF (its first frame), BMP and
/// TIFF read; PNG and JPEG written. Nothing of drawing, views or symbols (SF Symbols) is offered.
open class UIImage: NSObject, ArtworkImage, @unchecked Sendable {
    /// The image's size in points (scale 1: one point a pixel).
    public let size: CGSize
    /// Always 1 here: there is no screen whose scale it would follow.
    public let scale: CGFloat = 1
    let width: Int
    let height: Int
    /// 8-bit RGBA, rows packed (immutable, as UIImage is).
    let pixels: [UInt8]

    /// An image from the bytes of an image file; nil when they are not one this reads.
    public init?(data: Data) {
        guard let decoded = try? Self.decode(data) else { return nil }
        (width, height, pixels) = decoded
        size = CGSize(width: width, height: height)
        super.init()
    }

    /// An image from a file; nil when it is not there or not an image this reads.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// An image by name, as iOS finds one in the app's bundle: the name as given, or with `.png`,
    /// `.jpg` or `.jpeg`, in the main bundle's resources (also the executable's own resources SwiftPM
    /// copies beside it, `Bundle.module`'s folder), then in the working directory; an asset catalog's image set
    /// (`*.xcassets/NAME.imageset/`) in those places too, its largest scale first. Nil when none is found.
    public convenience init?(named name: String) {
        guard let path = Self.path(named: name) else { return nil }
        self.init(contentsOfFile: path)
    }

    /// PNG data of the image.
    open func pngData() -> Data? { try? encode(quality: -1) }

    /// JPEG data of the image at a quality from 0 (smallest) to 1 (best).
    open func jpegData(compressionQuality: CGFloat) -> Data? { try? encode(quality: min(1, max(0, Double(compressionQuality)))) }

    /// Why a decode or an encode failed (the codec's words).
    struct CodecError: Error, CustomStringConvertible {
        var description: String
        init(_ message: [CChar]) {
            description = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    static func decode(_ data: Data) throws -> (Int, Int, [UInt8]) {
        var error = [CChar](repeating: 0, count: 256)
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        let result = data.withUnsafeBytes { bytes in
            image_codec_decode(
                bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &rgba, &width, &height, &error, error.count)
        }
        guard result == 0, let rgba else { throw CodecError(error) }
        defer { image_codec_free(rgba) }
        return (Int(width), Int(height), Array(UnsafeBufferPointer(start: rgba, count: Int(width) * Int(height) * 4)))
    }

    private func encode(quality: Double) throws -> Data {
        var error = [CChar](repeating: 0, count: 256)
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        let result = pixels.withUnsafeBufferPointer { rgba in
            image_codec_encode(rgba.baseAddress, Int32(width), Int32(height), quality, &bytes, &count, &error, error.count)
        }
        guard result == 0, let bytes else { throw CodecError(error) }
        defer { image_codec_free(bytes) }
        return Data(bytes: bytes, count: count)
    }

    /// Where `UIImage(named:)` finds an image.
    static func path(named name: String) -> String? {
        let manager = FileManager.default
        var folders: [String] = []
        if let resources = Bundle.main.resourcePath { folders.append(resources) }
        folders.append(Bundle.main.bundlePath)
        // The executable's own SwiftPM resource bundle beside it (PACKAGE_TARGET.resources).
        if let executable = Bundle.main.executableURL {
            let folder = executable.deletingLastPathComponent().path
            let own = "_\(executable.lastPathComponent).resources"
            if let items = try? manager.contentsOfDirectory(atPath: folder) {
                folders += items.filter { $0.hasSuffix(own) }.sorted().map { "\(folder)/\($0)" }
            }
        }
        folders.append(manager.currentDirectoryPath)
        let names = (name as NSString).pathExtension.isEmpty ? [name + ".png", name + ".jpg", name + ".jpeg", name] : [name]
        for folder in folders {
            for candidate in names where manager.fileExists(atPath: "\(folder)/\(candidate)") { return "\(folder)/\(candidate)" }
            // Asset catalogs: FOLDER/*.xcassets/NAME.imageset/FILE, the largest scale first.
            let catalogs = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcassets") }
                .sorted()
            for catalog in catalogs {
                let set = "\(folder)/\(catalog)/\(name).imageset"
                let files = ((try? manager.contentsOfDirectory(atPath: set)) ?? []).filter {
                    ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased())
                }
                let scale = { (file: String) in file.contains("@3x") ? 3 : file.contains("@2x") ? 2 : 1 }
                if let best = files.sorted(by: { scale($0) > scale($1) || (scale($0) == scale($1) && $0 < $1) }).first {
                    return "\(set)/\(best)"
                }
            }
        }
        return nil
    }
}

/// UIKit's older functions for an image's data.
public func UIImagePNGRepresentation(_ image: UIImage) -> Data? { image.pngData() }
public func UIImageJPEGRepresentation(_ image: UIImage, _ compressionQuality: CGFloat) -> Data? {
    image.jpegData(compressionQuality: compressionQuality)
}
