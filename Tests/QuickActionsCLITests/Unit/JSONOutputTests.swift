import DBus
import Foundation
import QuickActionsCLI
import Testing

@Suite("JSON output")
struct JSONOutputTests {
    /// Serialises and parses back, as a script would see it.
    func roundTrip(_ object: Any) throws -> Any {
        let text = try JSONOutput.text(object)
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test("scalar D-Bus values map to JSON scalars of the same value", arguments: [
        (Value.string("x"), "\"x\""), (.boolean(true), "true"), (.boolean(false), "false"),
        (.int64(-5), "-5"), (.uint64(18_446_744_073_709_551_615), "18446744073709551615"), (.int32(7), "7"),
        (.uint32(8), "8"), (.byte(255), "255"), (.int16(-2), "-2"), (.uint16(3), "3"), (.double(1.5), "1.5"),
        (.double(.infinity), "null"), (.objectPath("/a/b"), "\"/a/b\""), (.variant(.variant(.string("v"))), "\"v\""),
    ])
    func scalars(_ value: Value, _ json: String) throws {
        #expect(try JSONOutput.text(JSONOutput.object(value), compact: true) == json)
    }

    @Test("containers: arrays (bytes too) and structs become arrays, dictionaries objects")
    func containers() throws {
        let value = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("bytes"), .variant(.array(.byte, [.byte(1), .byte(2)]))),
            DictionaryEntry(.string("list"), .variant(.array(.variant, [.variant(.string("a")), .variant(.int64(1))]))),
            DictionaryEntry(.string("nested"), .variant(.dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("ok"), .variant(.boolean(true)))
            ]))),
            DictionaryEntry(.string("pair"), .variant(.structure([.string("s"), .uint32(2)]))),
        ])
        #expect(try JSONOutput.text(JSONOutput.object(value), compact: true)
            == #"{"bytes":[1,2],"list":["a",1],"nested":{"ok":true},"pair":["s",2]}"#)
    }

    @Test("empty lists and objects are [] and {}, at any depth; strings are left alone")
    func emptyContainers() throws {
        let cases: [(Any, String)] = [
            ([] as [Any], "[]"),
            (["apps": [] as [Any], "x": [:] as [String: Any]] as [String: Any], "{\n  \"apps\" : [],\n  \"x\" : {}\n}"),
            (["[ ]", "{\n}", "a\"[  ]"] as [Any], "[\n  \"[ ]\",\n  \"{\\n}\",\n  \"a\\\"[  ]\"\n]"),
        ]
        for (object, expected) in cases {
            #expect(try JSONOutput.text(object) == expected)
        }
    }

    @Test("keys are sorted and slashes are not escaped")
    func sortedKeys() throws {
        let text = try JSONOutput.text(["b": 1, "a": "/usr/share/icons/x.png"], compact: true)
        #expect(text == #"{"a":"/usr/share/icons/x.png","b":1}"#)
    }

    @Test("an items group is {app-id, items}, each item exactly its dictionary")
    func group() throws {
        let item = Item(
            type: "play", title: "Play", subtitle: "Resume", icon: "media-playback-start", origin: "static",
            userInfo: [DictionaryEntry(.string("n"), .variant(.int64(3)))])
        let bare = Item(type: "pause", title: "Pause", origin: "dynamic")
        let parsed = try roundTrip([JSONOutput.group(AppItems(appID: "org.example.Music", items: [item, bare]))])
        let groups = try #require(parsed as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups[0]["app-id"] as? String == "org.example.Music")
        let items = try #require(groups[0]["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(Set(items[0].keys) == ["id", "type", "title", "subtitle", "icon", "user-info", "origin"])
        #expect(items[0]["id"] as? String == "play")
        #expect(items[0]["type"] as? String == "play")
        #expect(items[0]["title"] as? String == "Play")
        #expect(items[0]["subtitle"] as? String == "Resume")
        #expect(items[0]["icon"] as? String == "media-playback-start")
        #expect(items[0]["origin"] as? String == "static")
        #expect((items[0]["user-info"] as? [String: Any])?["n"] as? Int == 3)
        #expect(Set(items[1].keys) == ["id", "type", "title", "user-info", "origin"], "no subtitle or icon key when absent")
    }

    @Test("an app is {id, name, icon, version, loaded}")
    func application() throws {
        let parsed = try roundTrip(JSONOutput.application(
            Application(id: "a.b", name: "AB", icon: "ab", version: "1.2", loaded: false)))
        let app = try #require(parsed as? [String: Any])
        #expect(app["id"] as? String == "a.b")
        #expect(app["name"] as? String == "AB")
        #expect(app["icon"] as? String == "ab")
        #expect(app["version"] as? String == "1.2")
        #expect(app["loaded"] as? Bool == false)
    }

    @Test("a perform result is {app-id, type, success, result}")
    func performResult() throws {
        let raw = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("message"), .variant(.string("done"))),
            DictionaryEntry(.string("activation"), .variant(.string("launch"))),
        ])
        let result = PerformResult(success: true, message: "done", activation: "launch", raw: raw)
        let text = try JSONOutput.text(JSONOutput.performResult(result, app: "a.b", type: "t", id: "t#1"), compact: true)
        #expect(text == #"{"app-id":"a.b","id":"t#1","result":{"activation":"launch","message":"done"},"success":true,"type":"t"}"#)
    }
}
