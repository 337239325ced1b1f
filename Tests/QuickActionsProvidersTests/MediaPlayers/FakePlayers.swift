import Foundation
import QuickActionsTestSupport

/// Fake MPRIS players in /usr/bin/python3 with dbus-python on a GLib main loop, each on a
/// connection of its own:
/// - `org.mpris.MediaPlayer2.good`: a well-behaved player (Playing, can pause and skip) that
///   records the controls it gets and follows them; `org.example.Fake.SetTitle(s)` changes
///   its track, `org.example.Fake.InvalidateStatus(s)` its status, sent as invalidated only.
/// - `org.mpris.MediaPlayer2.hostile`: never answers GetAll of the root interface; answers the
///   player interface's with wrong types and a huge Metadata; invalidates PlaybackStatus and
///   answers its Get with a wrong type; `org.example.Fake.Flood(u)` sends that many
///   PropertiesChanged as fast as it can, each with a new title, the last "Flood <n-1>".
/// - `org.mpris.MediaPlayer2.silent`: answers nothing at all.
/// The script prints "ready" once all three own their names, and a line per control performed.
final class FakePlayers {
    private let process: ManagedProcess
    let script: URL

    init(bus: TestBus) async throws {
        script = bus.directory.appendingPathComponent("fake_players.py")
        try Self.source.write(to: script, atomically: true, encoding: .utf8)
        process = try ManagedProcess("/usr/bin/python3", [script.path], environment: bus.environment(),
                                     directory: bus.directory, name: "fake-players")
        let deadline = ContinuousClock.now + .seconds(30)
        while !process.standardOutput.contains("ready") {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.stop()
                throw TestSupportError("the fake players did not start: \(process.standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit { process.stop() }

    func stop() { process.stop() }

    var output: String { process.standardOutput }
    var errors: String { process.standardError }

    static let source = #"""
import sys
import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPS = "org.freedesktop.DBus.Properties"
PATH = "/org/mpris/MediaPlayer2"

def connect(name):
    bus = dbus.bus.BusConnection(dbus.bus.BUS_SESSION)
    bus.request_name(name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    return bus

def say(text):
    print(text, flush=True)

class Good(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.status = "Playing"
        self.title = "First Song"

    def player_props(self):
        return {
            "PlaybackStatus": dbus.String(self.status), "CanPlay": True, "CanPause": True,
            "CanGoNext": True, "CanGoPrevious": False, "CanControl": True,
            "Metadata": dbus.Dictionary({"xesam:title": dbus.String(self.title),
                                         "xesam:artist": dbus.Array(["Good Band"], signature="s")}, signature="sv"),
        }

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == ROOT:
            return dbus.Dictionary({"Identity": "Good Player", "DesktopEntry": "good-player",
                                    "CanQuit": False, "CanRaise": False}, signature="sv")
        if interface == PLAYER:
            return dbus.Dictionary(self.player_props(), signature="sv")
        return dbus.Dictionary({}, signature="sv")

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def changed(self):
        self.PropertiesChanged(PLAYER, dbus.Dictionary(self.player_props(), signature="sv"), dbus.Array([], signature="s"))

    @dbus.service.method(PLAYER)
    def Pause(self):
        say("good Pause")
        self.status = "Paused"
        self.changed()

    @dbus.service.method(PLAYER)
    def Play(self):
        say("good Play")
        self.status = "Playing"
        self.changed()

    @dbus.service.method(PLAYER)
    def Next(self):
        say("good Next")
        raise dbus.exceptions.DBusException("the playlist ended", name="org.mpris.MediaPlayer2.good.Error.NoTrack")

    @dbus.service.method("org.example.Fake", in_signature="s")
    def InvalidateStatus(self, status):
        self.status = status
        self.PropertiesChanged(PLAYER, dbus.Dictionary({}, signature="sv"), dbus.Array(["PlaybackStatus"], signature="s"))

    @dbus.service.method("org.example.Fake", in_signature="s")
    def SetTitle(self, title):
        self.title = title
        self.changed()

class Hostile(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}", async_callbacks=("ok", "fail"))
    def GetAll(self, interface, ok, fail):
        if interface == ROOT:
            return  # never answers
        huge = dbus.Dictionary({"xesam:title": dbus.String("T" * (1 << 20)),
                                "xesam:artist": dbus.Array(["A" * 4096] * 2000, signature="s")}, signature="sv")
        for i in range(20000):
            huge["junk:%d" % i] = dbus.String("x" * 64)
        ok(dbus.Dictionary({
            "PlaybackStatus": dbus.Int32(1), "CanPlay": True, "CanPause": dbus.String("yes"),
            "CanGoNext": dbus.Int32(1), "CanGoPrevious": True, "CanControl": True, "Metadata": huge,
        }, signature="sv"))

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return dbus.UInt64(12345)

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.method("org.example.Fake", in_signature="u")
    def Flood(self, count):
        for i in range(count):
            self.PropertiesChanged(PLAYER, dbus.Dictionary({
                "Metadata": dbus.Dictionary({"xesam:title": dbus.String("Flood %d" % i)}, signature="sv"),
                "CanGoNext": dbus.String("sometimes"),
            }, signature="sv"), dbus.Array(["PlaybackStatus", "Bogus"] * 50, signature="s"))
        say("flooded %d" % count)

class Silent(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}", async_callbacks=("ok", "fail"))
    def GetAll(self, interface, ok, fail):
        pass

buses = [connect("org.mpris.MediaPlayer2.good"), connect("org.mpris.MediaPlayer2.hostile"),
         connect("org.mpris.MediaPlayer2.silent")]
players = [Good(buses[0]), Hostile(buses[1]), Silent(buses[2])]
say("ready")
GLib.MainLoop().run()
"""#
}
