import Foundation
import QuickActionsModel

/// Errors in plain words for a log line or a D-Bus error message.
///
/// Foundation's errors print as raw `NSError` dumps (`Error
/// Domain=NSCocoaErrorDomain Code=4 "(null)" UserInfo={…}`) when
/// interpolated; this says what the system said instead (`No such file or
/// directory`), with the file when the error names one and the caller did
/// not. The project's own typed errors already describe themselves and are
/// passed through unchanged.
public enum PlainErrorDescription {
    /// `error` in plain words. `path`: the file the caller already names in
    /// its message, left out of the description so a line does not say it twice.
    public static func of(_ error: any Error, path: String? = nil) -> String {
        if let posix = error as? POSIXError {
            return strerrorText(posix.code.rawValue)
        }
        if let cocoa = error as? CocoaError {
            return describe(cocoa as NSError, path: path)
        }
        // Only a bare NSError (not a Swift error bridged to one) prints as a dump.
        if type(of: error) is NSError.Type {
            return describe(error as NSError, path: path)
        }
        return "\(error)"
    }

    private static func describe(_ error: NSError, path: String?) -> String {
        let file = (error.userInfo[NSFilePathErrorKey] as? String)
            ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        let named = file.map { $0 == path ? "" : "\($0): " } ?? ""
        if error.domain == NSPOSIXErrorDomain {
            return named + strerrorText(Int32(clamping: error.code))
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return named + strerrorText(Int32(clamping: underlying.code))
        }
        if let reason = cocoaReason(error) {
            return named + reason
        }
        let text = (error.userInfo[NSLocalizedFailureReasonErrorKey] as? String)
            ?? (error.userInfo["NSDebugDescription"] as? String)
            ?? error.localizedDescription
        return named + text
    }

    /// The common file errors, in the words strerror would use.
    private static func cocoaReason(_ error: NSError) -> String? {
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return strerrorText(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return strerrorText(EACCES)
        case .fileWriteOutOfSpace: return strerrorText(ENOSPC)
        case .fileWriteVolumeReadOnly: return strerrorText(EROFS)
        case .fileWriteFileExists: return strerrorText(EEXIST)
        case .fileReadCorruptFile: return "the file is corrupt"
        case .fileReadTooLarge: return "the file is too large"
        case .fileReadUnknownStringEncoding, .fileReadInapplicableStringEncoding: return "the file is not valid text"
        default: return nil
        }
    }

    private static func strerrorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
