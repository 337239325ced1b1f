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
        guard let sections = SectionTable(descriptor: descriptor), sections.namesIndex < sections.count,
            let strings = sections.contents(of: sections.namesIndex, descriptor: descriptor, limit: 1 << 20)
        else { return nil }
        var names: [String] = []
        for index in 0..<sections.count {
            guard let name = Self.string(in: strings, at: Int(sections.field(of: index, at: 0, bytes: 4))) else {
                return nil
            }
            names.append(name)
        }
        return names
    }

    /// The library names (DT_NEEDED) of the ELF64 little-endian file's dynamic section, from
    /// its section table, or nil if it is not one or its tables are out of bounds.
    static func neededLibraries(descriptor: Int32) -> [String]? {
        guard let sections = SectionTable(descriptor: descriptor) else { return nil }
        // SHT_DYNAMIC (6); its sh_link is the index of the string table its entries point into.
        guard let dynamic = (0..<sections.count).first(where: { sections.field(of: $0, at: 4, bytes: 4) == 6 })
        else { return [] }
        let link = Int(sections.field(of: dynamic, at: 40, bytes: 4))
        guard link < sections.count,
            let entries = sections.contents(of: dynamic, descriptor: descriptor, limit: 1 << 20), entries.count % 16 == 0,
            let strings = sections.contents(of: link, descriptor: descriptor, limit: 4 << 20)
        else { return nil }
        var names: [String] = []
        for index in 0..<(entries.count / 16) {
            let tag = littleEndian(entries, at: index * 16, bytes: 8)
            if tag == 0 { break }  // DT_NULL
            guard tag == 1 else { continue }  // DT_NEEDED
            guard let name = Self.string(in: strings, at: Int(littleEndian(entries, at: index * 16 + 8, bytes: 8)))
            else { return nil }
            names.append(name)
        }
        return names
    }

    /// An ELF64 little-endian file's section header table, read whole.
    private struct SectionTable {
        let table: [UInt8]
        let entrySize: Int
        let count: Int
        /// e_shstrndx: the section holding the section names.
        let namesIndex: Int

        /// Nil when the file is not ELF64 little-endian or its table is out of bounds.
        init?(descriptor: Int32) {
            guard let header = SwiftImageProbe.read(descriptor, offset: 0, count: 64), header.count == 64,
                header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,  // \x7FELF
                header[4] == 2, header[5] == 1  // 64-bit, little-endian
            else { return nil }
            let offset = Int(littleEndian(header, at: 40, bytes: 8))
            entrySize = Int(littleEndian(header, at: 58, bytes: 2))
            count = Int(littleEndian(header, at: 60, bytes: 2))
            namesIndex = Int(littleEndian(header, at: 62, bytes: 2))
            guard count > 0, entrySize >= 64, count * entrySize <= 4 << 20,
                let table = SwiftImageProbe.read(descriptor, offset: offset, count: count * entrySize),
                table.count == count * entrySize
            else { return nil }
            self.table = table
        }

        /// A field of section `index`'s header (`index` < `count`; the field within 64 bytes).
        func field(of index: Int, at offset: Int, bytes width: Int) -> UInt64 {
            littleEndian(table, at: index * entrySize + offset, bytes: width)
        }

        /// Section `index`'s bytes (sh_offset, sh_size), or nil past `limit` or the file's end.
        func contents(of index: Int, descriptor: Int32, limit: Int) -> [UInt8]? {
            let offset = Int(field(of: index, at: 24, bytes: 8))
            let size = Int(field(of: index, at: 32, bytes: 8))
            guard size <= limit, let bytes = SwiftImageProbe.read(descriptor, offset: offset, count: size),
                bytes.count == size
            else { return nil }
            return bytes
        }
    }

    /// The NUL-terminated string at `start` in a string table, or nil when `start` is outside it.
    private static func string(in strings: [UInt8], at start: Int) -> String? {
        guard start >= 0, start < strings.count else { return nil }
        let end = strings[start...].firstIndex(of: 0) ?? strings.count
        return String(decoding: strings[start..<end], as: UTF8.self)
    }

    fileprivate static func read(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
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

    fileprivate static func littleEndian(_ bytes: [UInt8], at offset: Int, bytes width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<width).reversed() {
            value = value << 8 | UInt64(bytes[offset + index])
        }
        return value
    }
}
