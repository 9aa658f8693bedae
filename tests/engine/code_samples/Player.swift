// Plays audio files from the library.
import AVFoundation

/// A player that plays one track at a time.
class Player {
    /// Starts playing the track.
    func play(_ track: Track) {
        engine.start()
    }
}

/// A track of the library.
struct Track {
    let title: String
}

protocol Playable {
    func play()
}

extension Track: Playable {
    func play() {}
}

func shuffle(_ tracks: [Track]) -> [Track] {
    return tracks.shuffled()
}
