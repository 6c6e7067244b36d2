import Foundation
import MediaPlayer
import Testing

@testable import UIKit

/// Issue 58: UIKit's UIImage as ported audio code uses it — artwork loaded from data, a file, the
/// app's resources or an asset catalog; its size; PNG and JPEG data — through FFmpeg's codecs.
@Suite("UIImage (issue 58)", .serialized)
struct UIImageTests {
    /// A temporary folder, removed at the end.
    final class Folder {
        let path = NSTemporaryDirectory() + "uikit-tests-\(UUID().uuidString)"
        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// An image made by ffmpeg (another program, as an app's artwork is): a solid colour.
    /// (posix_spawn and waitpid: Foundation's Process aborted here now and then beside other tests.)
    static func make(_ file: String, color: String = "0x3060c0", size: String = "64x48") throws -> Data {
        let arguments = [
            "/usr/bin/ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=\(size)",
            "-frames:v", "1", file,
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0]!, nil, nil, argv, environ) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    /// The pixel in the middle, as RGBA.
    static func middle(_ image: UIImage) -> [UInt8] {
        let offset = ((image.height / 2) * image.width + image.width / 2) * 4
        return Array(image.pixels[offset..<offset + 4])
    }

    static func near(_ pixel: [UInt8], _ expected: [UInt8], within: Int) -> Bool {
        zip(pixel, expected).allSatisfy { abs(Int($0) - Int($1)) <= within }
    }

    @Test(
        "Read from PNG, JPEG, GIF, BMP and WebP files other programs made: the size and the colour",
        arguments: ["png", "jpg", "gif", "bmp", "webp"])
    func reads(_ format: String) throws {
        let folder = Folder()
        let data = try Self.make("\(folder.path)/art.\(format)")
        let image = try #require(UIImage(data: data), "\(format): \(data.prefix(16).map { String(format: "%02x", $0) })")
        #expect(image.size == CGSize(width: 64, height: 48))
        // 0x3060c0, opaque (lossy formats within a few steps).
        #expect(
            Self.near(
                Self.middle(image), [0x30, 0x60, 0xc0, 0xff],
                within: format == "png" || format == "bmp" ? 1 : format == "gif" ? 40 : 8), "\(Self.middle(image))")
        #expect(UIImage(contentsOfFile: "\(folder.path)/art.\(format)")?.size == image.size)
    }

    @Test("pngData() and jpegData(compressionQuality:) write images that read back the same; a lower quality is smaller")
    func writes() throws {
        let folder = Folder()
        let image = try #require(UIImage(data: try Self.make("\(folder.path)/art.png", size: "256x256")))
        let png = try #require(image.pngData())
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "PNG's signature")
        let again = try #require(UIImage(data: png))
        #expect(again.size == image.size && again.pixels == image.pixels, "PNG is lossless")
        let fine = try #require(image.jpegData(compressionQuality: 0.9))
        let coarse = try #require(image.jpegData(compressionQuality: 0.1))
        #expect(fine.prefix(3) == Data([0xff, 0xd8, 0xff]), "JPEG's start of image")
        let decoded = try #require(UIImage(data: fine))
        #expect(
            decoded.size == image.size && Self.near(Self.middle(decoded), [0x30, 0x60, 0xc0, 0xff], within: 8),
            "\(Self.middle(decoded))")
        #expect(coarse.count <= fine.count, "quality 0.1: \(coarse.count) bytes, 0.9: \(fine.count)")
        #expect(UIImagePNGRepresentation(image) == png)
    }

    @Test("Bad input: not an image, a truncated one, no file, no such name — nil, nothing thrown")
    func badInput() throws {
        let folder = Folder()
        let png = try Self.make("\(folder.path)/art.png")
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
        #expect(UIImage(data: Data()) == nil)
        #expect(UIImage(data: png.prefix(40)) == nil, "a PNG cut after its header")
        #expect(UIImage(contentsOfFile: "\(folder.path)/missing.png") == nil)
        #expect(UIImage(named: "no-such-artwork-\(UUID().uuidString)") == nil)
    }

    @Test("UIImage(named:) finds NAME.png in the working directory and NAME.imageset in an asset catalog, its largest scale")
    func named() throws {
        let folder = Folder()
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        #expect(FileManager.default.changeCurrentDirectoryPath(folder.path))
        _ = try Self.make("\(folder.path)/station.png", size: "32x32")
        #expect(UIImage(named: "station")?.size == CGSize(width: 32, height: 32))
        #expect(UIImage(named: "station.png")?.size == CGSize(width: 32, height: 32))
        let set = "\(folder.path)/Assets.xcassets/cover.imageset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        _ = try Self.make("\(set)/cover.png", size: "20x20")
        _ = try Self.make("\(set)/cover@2x.png", size: "40x40")
        #expect(UIImage(named: "cover")?.size == CGSize(width: 40, height: 40), "the @2x one")
    }

    @Test(
        "MPMediaItemArtwork(boundsSize:requestHandler:) takes Apple's UIImage handler: the desktop's file is a PNG of the image")
    func artwork() throws {
        let folder = Folder()
        let image = try #require(UIImage(data: try Self.make("\(folder.path)/art.jpg", size: "300x300")))
        let artwork = MPMediaItemArtwork(boundsSize: image.size) { _ in image }
        let url = try #require(artwork.url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(url.pathExtension == "png")
        let written = try #require(UIImage(contentsOfFile: url.path))
        #expect(written.size == image.size && written.pixels == image.pixels)
        #expect(MPMediaItemArtwork(image: image).url?.pathExtension == "png")
    }
}
