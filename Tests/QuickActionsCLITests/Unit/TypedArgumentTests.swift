import DBus
import QuickActionsCLI
import Testing

@Suite("Typed --arg values")
struct TypedArgumentTests {
    static let valid: [(String, String, Value)] = [
        ("name=Ada", "name", .string("Ada")),
        ("empty=", "empty", .string("")),
        ("eq=a=b", "eq", .string("a=b")),
        ("n=42", "n", .string("42")),
        ("n:int=42", "n", .int64(42)),
        ("n:i=-7", "n", .int64(-7)),
        ("big:int=9223372036854775807", "big", .int64(Int64.max)),
        ("flag:bool=true", "flag", .boolean(true)),
        ("flag:b=false", "flag", .boolean(false)),
        ("x:double=1.5", "x", .double(1.5)),
        ("x:d=-2e3", "x", .double(-2000)),
        ("x:double=3", "x", .double(3)),
        ("s:string=42", "s", .string("42")),
        ("s:s=true", "s", .string("true")),
        ("url:string=http://x", "url", .string("http://x")),
        ("a:b:string=c", "a:b", .string("c")),
        ("T:INT=1", "T", .int64(1)),
    ]

    @Test("KEY[:TYPE]=VALUE gives the key and the typed value", arguments: valid)
    func parses(_ text: String, _ key: String, _ value: Value) throws {
        let argument = try TypedArgument(parsing: text)
        #expect(argument.key == key)
        #expect(argument.value == value)
    }

    static let invalid: [(String, String)] = [
        ("novalue", "--arg 'novalue' has no '=': write KEY=VALUE or KEY:TYPE=VALUE"),
        ("=x", "--arg '=x' has an empty key: write KEY=VALUE"),
        (":int=1", "--arg ':int=1' has an empty key: write KEY=VALUE"),
        ("n:integr=1", "--arg 'n:integr=1' has an unknown type 'integr': use string, int, bool or double"),
        ("n:int=4.2", "--arg 'n:int=4.2': '4.2' is not an integer (a 64-bit signed whole number)"),
        ("n:int=", "--arg 'n:int=': '' is not an integer (a 64-bit signed whole number)"),
        ("n:int=9223372036854775808", "--arg 'n:int=9223372036854775808': '9223372036854775808' is not an integer (a 64-bit signed whole number)"),
        ("f:bool=yes", "--arg 'f:bool=yes': 'yes' is not a boolean: use true or false"),
        ("f:bool=1", "--arg 'f:bool=1': '1' is not a boolean: use true or false"),
        ("x:double=nan", "--arg 'x:double=nan': 'nan' is not a finite decimal number"),
        ("x:double=inf", "--arg 'x:double=inf': 'inf' is not a finite decimal number"),
        ("x:double=0x10", "--arg 'x:double=0x10': '0x10' is not a finite decimal number"),
        ("x:double=1e999", "--arg 'x:double=1e999': '1e999' is not a finite decimal number"),
    ]

    @Test("bad --arg values are usage errors naming the argument", arguments: invalid)
    func rejects(_ text: String, _ message: String) {
        #expect(throws: UsageError(message)) { try TypedArgument(parsing: text) }
    }

    @Test("the arguments dictionary is a{sv} in the order given")
    func dictionary() throws {
        let value = try TypedArgument.dictionary(parsing: ["a=1", "b:int=2", "c:bool=true"])
        #expect(value == .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("a"), .variant(.string("1"))),
            DictionaryEntry(.string("b"), .variant(.int64(2))),
            DictionaryEntry(.string("c"), .variant(.boolean(true))),
        ]))
        #expect(value.type.signature == "a{sv}")
    }

    @Test("a key given twice is a usage error naming it")
    func duplicateKey() {
        #expect(throws: UsageError("--arg key 'a' is given more than once")) {
            try TypedArgument.dictionary(parsing: ["a=1", "a:int=2"])
        }
    }
}
