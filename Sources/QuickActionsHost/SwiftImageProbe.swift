import Glibc

/// Tells, from a library's ELF section table read through its open
/// descriptor (no code runs), whether loading it registers the image with the
/// Swift runtime.
///
/// Every shared object linked by swiftc carries swiftrt.o, whose constructor
/// hands the runtime a pointer into the image (`swift_addNewDSOImage`) that
/// is never taken back; that includes C libraries built by SwiftPM. Closing
/// such an image would leave the runtime walking unmapped memory. swiftrt.o
/// always declares the `swift5_protocols` section, so its presence (even
/// empty) marks such an image. A file that cannot be read as ELF64 counts as
/// registering: the safe answer is to keep it mapped.
enum SwiftImageProbe {
    static func registersWithSwiftRuntime(descriptor: Int32) -> Bool {
        guard let names = sectionNames(descriptor: descriptor) else { return true }
        return names.contains { $0.hasPrefix("swift5_") }
    }

    /// The names of the ELF64 little-endian file's sections, or nil if it is
    /// not one or its tables are out of bounds.
    static func sectionNames(descriptor: Int32) -> [String]? {
        guard let header = read(descriptor, offset: 0, count: 64), header.count == 64,
            header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,  // \x7FELF
            header[4] == 2, header[5] == 1  // 64-bit, little-endian
        else { return nil }
        let sectionTable = Int(littleEndian(header, at: 40, bytes: 8))
        let entrySize = Int(littleEndian(header, at: 58, bytes: 2))
        let count = Int(littleEndian(header, at: 60, bytes: 2))
        let namesIndex = Int(littleEndian(header, at: 62, bytes: 2))
        guard count > 0, entrySize >= 64, namesIndex < count, count * entrySize <= 4 << 20,
            let table = read(descriptor, offset: sectionTable, count: count * entrySize),
            table.count == count * entrySize
        else { return nil }
        let namesEntry = namesIndex * entrySize
        let namesOffset = Int(littleEndian(table, at: namesEntry + 24, bytes: 8))
        let namesSize = Int(littleEndian(table, at: namesEntry + 32, bytes: 8))
        guard namesSize <= 1 << 20, let strings = read(descriptor, offset: namesOffset, count: namesSize),
            strings.count == namesSize
        else { return nil }
        var names: [String] = []
        for index in 0..<count {
            let start = Int(littleEndian(table, at: index * entrySize, bytes: 4))
            guard start < strings.count else { return nil }
            let end = strings[start...].firstIndex(of: 0) ?? strings.count
            names.append(String(decoding: strings[start..<end], as: UTF8.self))
        }
        return names
    }

    /// The library names (DT_NEEDED) of the ELF64 little-endian file's dynamic section, from
    /// its section table, or nil if it is not one or its tables are out of bounds.
    static func neededLibraries(descriptor: Int32) -> [String]? {
        guard let header = read(descriptor, offset: 0, count: 64), header.count == 64,
            header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,  // \x7FELF
            header[4] == 2, header[5] == 1  // 64-bit, little-endian
        else { return nil }
        let sectionTable = Int(littleEndian(header, at: 40, bytes: 8))
        let entrySize = Int(littleEndian(header, at: 58, bytes: 2))
        let count = Int(littleEndian(header, at: 60, bytes: 2))
        guard count > 0, entrySize >= 64, count * entrySize <= 4 << 20,
            let table = read(descriptor, offset: sectionTable, count: count * entrySize),
            table.count == count * entrySize
        else { return nil }
        // SHT_DYNAMIC (6); its sh_link is the index of the string table its entries point into.
        guard let dynamic = (0..<count).first(where: { littleEndian(table, at: $0 * entrySize + 4, bytes: 4) == 6 })
        else { return [] }
        let entry = dynamic * entrySize
        let offset = Int(littleEndian(table, at: entry + 24, bytes: 8))
        let size = Int(littleEndian(table, at: entry + 32, bytes: 8))
        let link = Int(littleEndian(table, at: entry + 40, bytes: 4))
        guard link < count, size <= 1 << 20, size % 16 == 0,
            let entries = read(descriptor, offset: offset, count: size), entries.count == size
        else { return nil }
        let stringsEntry = link * entrySize
        let stringsOffset = Int(littleEndian(table, at: stringsEntry + 24, bytes: 8))
        let stringsSize = Int(littleEndian(table, at: stringsEntry + 32, bytes: 8))
        guard stringsSize <= 4 << 20, let strings = read(descriptor, offset: stringsOffset, count: stringsSize),
            strings.count == stringsSize
        else { return nil }
        var names: [String] = []
        for index in 0..<(size / 16) {
            let tag = littleEndian(entries, at: index * 16, bytes: 8)
            if tag == 0 { break }  // DT_NULL
            guard tag == 1 else { continue }  // DT_NEEDED
            let start = Int(littleEndian(entries, at: index * 16 + 8, bytes: 8))
            guard start < strings.count else { return nil }
            let end = strings[start...].firstIndex(of: 0) ?? strings.count
            names.append(String(decoding: strings[start..<end], as: UTF8.self))
        }
        return names
    }

    private static func read(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(buffer[0..<done])
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, bytes width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<width).reversed() {
            value = value << 8 | UInt64(bytes[offset + index])
        }
        return value
    }
}
