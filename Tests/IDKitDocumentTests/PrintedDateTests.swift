import Testing
import IDKitDocument
import IDKitMRZ

/// Printed dates with the month's name in the issuers' languages, as data pages print them
/// (bilingual `OKT/OCT`, the national form first) and as OCR reads them (lower case, a diacritic
/// dropped). The forms are the months' usual abbreviations in each language (the Dutch
/// specimen of `../shared/testdata/mrz-real` prints `14 OKT/OCT 1971`); every month is tried.
struct PrintedDateTests {
    static let reference = CalendarDate(year: 2025, month: 6, day: 1)

    /// One printed date per month and language, and the month it names.
    static let printed: [(String, Int)] = [
        ("03 JAN/JAN 1971", 1), ("03 ENE/JAN 1971", 1), ("03 GEN/JAN 1971", 1), ("03 STY/JAN 1971", 1), ("03 LED/JAN 1971", 1), ("03 IAN/JAN 1971", 1),
        ("03 FEB 1971", 2), ("03 FÉV/FEB 1971", 2), ("03 LUT/FEB 1971", 2), ("03 ÚNO/FEB 1971", 2), ("03 uno/feb 1971", 2),
        ("03 MÄR/MAR 1971", 3), ("03 MRZ 1971", 3), ("03 MRT/MAR 1971", 3), ("03 MAA/MAR 1971", 3), ("03 BŘE/MAR 1971", 3), ("03 MÁR 1971", 3),
        ("03 AVR/APR 1971", 4), ("03 ABR/APR 1971", 4), ("03 KWI/APR 1971", 4), ("03 DUB/APR 1971", 4), ("03 ÁPR 1971", 4),
        ("03 MAI/MAY 1971", 5), ("03 MEI/MAY 1971", 5), ("03 MAG/MAY 1971", 5), ("03 MAJ/MAY 1971", 5), ("03 KVĚ/MAY 1971", 5), ("03 MÁJ 1971", 5),
        ("03 JUIN/JUN 1971", 6), ("03 GIU/JUN 1971", 6), ("03 CZE/JUN 1971", 6), ("03 ČVN/JUN 1971", 6), ("03 JÚN 1971", 6), ("03 IUN/JUN 1971", 6),
        ("03 JUIL/JUL 1971", 7), ("03 LUG/JUL 1971", 7), ("03 LIP/JUL 1971", 7), ("03 ČVC/JUL 1971", 7), ("03 JÚL 1971", 7), ("03 IUL/JUL 1971", 7),
        ("03 AOÛT/AUG 1971", 8), ("03 AGO/AUG 1971", 8), ("03 SIE/AUG 1971", 8), ("03 SRP/AUG 1971", 8),
        ("03 SEPT 1971", 9), ("03 SET/SEP 1971", 9), ("03 WRZ/SEP 1971", 9), ("03 ZÁŘ/SEP 1971", 9), ("03 SZEP 1971", 9),
        ("14 OKT/OCT 1971", 10), ("14 OkT/OCT 1971", 10), ("14 OTT/OCT 1971", 10), ("14 OUT/OCT 1971", 10), ("14 PAŹ/OCT 1971", 10),
        ("14 ŘÍJ/OCT 1971", 10), ("14 rij 1971", 10),
        ("03 NOV 1971", 11), ("03 LIS/NOV 1971", 11), ("03 NOI/NOV 1971", 11),
        ("03 DÉC/DEC 1971", 12), ("03 DEZ/DEC 1971", 12), ("03 DIC/DEC 1971", 12), ("03 GRU/DEC 1971", 12), ("03 PRO/DEC 1971", 12),
    ]

    @Test(arguments: printed)
    func theMonthIsReadInTheIssuersLanguages(_ date: (String, Int)) {
        let day = date.0.hasPrefix("14") ? 14 : 3
        let month = date.1 < 10 ? "0\(date.1)" : "\(date.1)"
        #expect(DocumentDate.candidates(date.0, monthFirst: false, kind: .birth, reference: Self.reference)
                == ["1971-\(month)-\(day < 10 ? "0\(day)" : "\(day)")"])
    }

    /// A word that names no month leaves the text no date.
    @Test func aWordThatIsNoMonthIsNoDate() {
        for text in ["03 XYZ 1971", "03 BOX 1971", "03 QQQ/ZZZ 71"] {
            #expect(DocumentDate.candidates(text, monthFirst: false, kind: .birth, reference: Self.reference).isEmpty, "\(text)")
        }
    }
}
