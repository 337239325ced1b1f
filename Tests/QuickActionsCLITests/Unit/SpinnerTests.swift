import Foundation
import QuickActionsCLI
import Synchronization
import Testing

@Suite("Spinner")
struct SpinnerTests {
    final class Screen: Sendable {
        let text = Mutex("")
        func write(_ more: String) { text.withLock { $0 += more } }
        var current: String { text.withLock { $0 } }
    }

    @Test("a call that ends before the delay draws nothing")
    func fast() {
        let screen = Screen()
        let spinner = Spinner(label: "x", unicode: false, write: screen.write)
        spinner.start(after: .seconds(30))
        spinner.stop()
        #expect(screen.current == "")
    }

    @Test("a slow call shows frames with the label, then the line is erased")
    func slow() async throws {
        let screen = Screen()
        let spinner = Spinner(label: "Play\nmusic", unicode: false, write: screen.write)
        spinner.start(after: .zero, interval: .milliseconds(5))
        let deadline = ContinuousClock.now + .seconds(10)
        while screen.current.components(separatedBy: "\r").count < 4 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        spinner.stop()
        let text = screen.current
        #expect(text.hasPrefix("\r| Play music"), "the label is sanitised and follows the frame: \(text.debugDescription)")
        #expect(text.contains("\r/ Play music"))
        #expect(text.hasSuffix("\r\u{1B}[2K"))
        let after = screen.current
        try await Task.sleep(for: .milliseconds(30))
        #expect(screen.current == after, "nothing is drawn after stop")
    }
}
