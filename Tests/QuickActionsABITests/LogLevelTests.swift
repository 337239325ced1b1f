import CQuickActionsPlugin
import QuickActionsModel
import Testing

/// LogLevel, the one level type of plugins, the loader, the broker and the bridges, crosses the C
/// ABI as its raw value: each case is the header's QA_LOG_* constant of the same name.
@Suite struct LogLevelTests {
    @Test(arguments: [
        (LogLevel.debug, QA_LOG_DEBUG, "debug"),
        (LogLevel.info, QA_LOG_INFO, "info"),
        (LogLevel.warning, QA_LOG_WARNING, "warning"),
        (LogLevel.error, QA_LOG_ERROR, "error"),
    ])
    func eachLevelIsTheHeadersConstant(_ level: LogLevel, _ constant: Int32, _ word: String) {
        #expect(level.rawValue == constant)
        #expect(LogLevel(rawValue: constant) == level)
        #expect(level.description == word)
    }

    @Test func theHeaderHasNoOtherLevelAndLevelsOrderBySeverity() {
        #expect(LogLevel.allCases.map(\.rawValue) == [QA_LOG_DEBUG, QA_LOG_INFO, QA_LOG_WARNING, QA_LOG_ERROR])
        #expect(LogLevel(rawValue: QA_LOG_ERROR + 1) == nil)
        #expect(LogLevel.allCases == LogLevel.allCases.sorted())
    }
}
