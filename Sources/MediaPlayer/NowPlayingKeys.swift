import AudioSession
import Foundation

// The Now Playing dictionary's keys, with Apple's string values (MPMediaItem and
// MPNowPlayingInfoCenter). What the desktop's media controls show comes from these
// (`MPRISState.metadata`): title, artist, album, duration, artwork, position and rate.
public let MPMediaItemPropertyTitle = "title"
public let MPMediaItemPropertyArtist = "artist"
public let MPMediaItemPropertyAlbumTitle = "albumTitle"
public let MPMediaItemPropertyAlbumArtist = "albumArtist"
public let MPMediaItemPropertyGenre = "genre"
public let MPMediaItemPropertyComposer = "composer"
public let MPMediaItemPropertyPlaybackDuration = "playbackDuration"
public let MPMediaItemPropertyAlbumTrackNumber = "albumTrackNumber"
public let MPMediaItemPropertyAlbumTrackCount = "albumTrackCount"
public let MPMediaItemPropertyDiscNumber = "discNumber"
public let MPMediaItemPropertyArtwork = "artwork"
public let MPMediaItemPropertyPersistentID = "persistentID"
public let MPMediaItemPropertyMediaType = "mediaType"
public let MPMediaItemPropertyPodcastTitle = "podcastTitle"
public let MPMediaItemPropertyAssetURL = "assetURL"
public let MPMediaItemPropertyLyrics = "lyrics"

public let MPNowPlayingInfoPropertyElapsedPlaybackTime = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
public let MPNowPlayingInfoPropertyPlaybackRate = "MPNowPlayingInfoPropertyPlaybackRate"
public let MPNowPlayingInfoPropertyDefaultPlaybackRate = "MPNowPlayingInfoPropertyDefaultPlaybackRate"
public let MPNowPlayingInfoPropertyPlaybackQueueIndex = "MPNowPlayingInfoPropertyPlaybackQueueIndex"
public let MPNowPlayingInfoPropertyPlaybackQueueCount = "MPNowPlayingInfoPropertyPlaybackQueueCount"
public let MPNowPlayingInfoPropertyChapterNumber = "MPNowPlayingInfoPropertyChapterNumber"
public let MPNowPlayingInfoPropertyChapterCount = "MPNowPlayingInfoPropertyChapterCount"
public let MPNowPlayingInfoPropertyIsLiveStream = "MPNowPlayingInfoPropertyIsLiveStream"
public let MPNowPlayingInfoPropertyMediaType = "MPNowPlayingInfoPropertyMediaType"
public let MPNowPlayingInfoPropertyPlaybackProgress = "MPNowPlayingInfoPropertyPlaybackProgress"
public let MPNowPlayingInfoPropertyAssetURL = "MPNowPlayingInfoPropertyAssetURL"
public let MPNowPlayingInfoPropertyCurrentPlaybackDate = "MPNowPlayingInfoPropertyCurrentPlaybackDate"
public let MPNowPlayingInfoPropertyExternalContentIdentifier = "MPNowPlayingInfoPropertyExternalContentIdentifier"
public let MPNowPlayingInfoCollectionIdentifier = "MPNowPlayingInfoCollectionIdentifier"

/// Apple's media types (`MPNowPlayingInfoPropertyMediaType`'s values).
public enum MPNowPlayingInfoMediaType: UInt, Sendable {
    case none = 0, audio, video
}

/// What the app says its playback is (`MPNowPlayingInfoCenter.playbackState`).
public enum MPNowPlayingPlaybackState: UInt, Sendable {
    case unknown = 0, playing, paused, stopped, interrupted
}

/// Artwork. On iOS it hands out a `UIImage`; here the desktop shows an image file, so the
/// artwork names one (`MPMediaItemArtwork(url:)`, or a handler giving the file's URL). An
/// artwork from image data is written to a temporary file once.
public final class MPMediaItemArtwork: @unchecked Sendable {
    public let bounds: CGRect
    /// The image file the desktop is given (`mpris:artUrl`).
    public let url: URL?

    public init(url: URL, boundsSize: CGSize = CGSize(width: 512, height: 512)) {
        self.url = url
        bounds = CGRect(origin: .zero, size: boundsSize)
    }

    /// Image data (PNG or JPEG) from the handler, asked once for the bounds' size (a Linux form).
    public init(boundsSize: CGSize, requestHandler: @escaping (CGSize) -> Data) {
        bounds = CGRect(origin: .zero, size: boundsSize)
        url = Self.file(holding: requestHandler(boundsSize), extension: "img")
    }

    /// Apple's: the image (UIKit's `UIImage`, any `ArtworkImage`) from the handler, asked once for
    /// the bounds' size; the desktop is given it as a PNG file.
    public init<Image: ArtworkImage>(boundsSize: CGSize, requestHandler: @escaping (CGSize) -> Image) {
        bounds = CGRect(origin: .zero, size: boundsSize)
        url = requestHandler(boundsSize).pngData().flatMap { Self.file(holding: $0, extension: "png") }
    }

    /// Apple's older form: the image itself, at its own size.
    public convenience init<Image: ArtworkImage>(image: Image) {
        self.init(boundsSize: image.size) { _ in image }
    }

    /// The bytes in a file of the temporary directory, named by this process and their hash.
    private static func file(holding data: Data, extension: String) -> URL? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "artwork-\(ProcessInfo.processInfo.processIdentifier)-\(UInt(bitPattern: data.hashValue)).\(`extension`)")
        return (try? data.write(to: file)) == nil ? nil : file
    }
}
