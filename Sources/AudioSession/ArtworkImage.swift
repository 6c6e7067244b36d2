import Foundation

/// An image Now Playing can show: what MediaPlayer's `MPMediaItemArtwork(boundsSize:requestHandler:)`
/// takes from its handler — the UIKit product's `UIImage` — given to the desktop as a PNG file.
/// (Here, below both, so that MediaPlayer need not link UIKit nor UIKit MediaPlayer.)
public protocol ArtworkImage {
    /// Its size in points.
    var size: CGSize { get }
    /// Its PNG data; nil when it cannot be encoded.
    func pngData() -> Data?
}
