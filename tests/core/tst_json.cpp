// The core's JSON library: escapes, unicode, int64-exact numbers, errors
// with line:column, nesting limits, order and copy semantics.
#include "json/json.hpp"
#include "test_support.hpp"

#include <QtTest/QtTest>

#include <cstring>
#include <limits>

using namespace sb;
using sbtest::q;

namespace {

// Decodes the C escapes used in the tables: \n \t \\ \xNN.
std::string unescape(const QString& field)
{
    const std::string s = field.toStdString();
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 >= s.size()) { out += s[i]; continue; }
        const char e = s[++i];
        if (e == 'n') out += '\n';
        else if (e == 't') out += '\t';
        else if (e == '\\') out += '\\';
        else if (e == 'x' && i + 2 < s.size()) { out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)); i += 2; }
        else { out += '\\'; out += e; }
    }
    return out;
}

} // namespace

class TestJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void errors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        int row = 0;
        for (const QStringList& r : sbtest::readTable(sbtest::dataPath(QStringLiteral("json/errors.tsv")))) {
            QVERIFY2(r.size() == 4, qPrintable(r.join(QLatin1Char('|'))));
            const std::string input = unescape(r[0]);
            QTest::addRow("%d: %s", ++row, qPrintable(r[0])) << QByteArray::fromStdString(input) << r[1].toInt() << r[2].toInt() << r[3];
        }
    }
    void errors()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const json::ParseResult r = json::parse(std::string_view(input.constData(), static_cast<std::size_t>(input.size())));
        QVERIFY(!r);
        QVERIFY2(q(r.error.message).contains(message), r.error.message.c_str());
        QCOMPARE(r.error.line, line);
        QCOMPARE(r.error.column, column);
        const QString text = q(r.error.toString());
        QVERIFY(text.startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)));
    }

    void numbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("integer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("dumped");
        for (const QStringList& r : sbtest::readTable(sbtest::dataPath(QStringLiteral("json/numbers.tsv"))))
            QTest::newRow(qPrintable(r[0])) << r[0] << (r[1] == QLatin1String("1")) << r[2] << r[3];
    }
    void numbers()
    {
        QFETCH(QString, text);
        QFETCH(bool, integer);
        QFETCH(QString, value);
        QFETCH(QString, dumped);
        const json::ParseResult r = json::parse(text.toStdString());
        QVERIFY(r);
        const json::Value& v = *r.value;
        QVERIFY(v.isNumber());
        QCOMPARE(v.isInteger(), integer);
        if (integer) QCOMPARE(static_cast<qint64>(v.asInt()), value.toLongLong());
        else QCOMPARE(v.asDouble(), value.toDouble());
        QCOMPARE(q(v.dump()), dumped);
        // What dump() writes reads back to the same value.
        const json::ParseResult again = json::parse(v.dump());
        QVERIFY(again);
        QVERIFY(*again.value == v);
    }

    void int64Exactness()
    {
        const long long big = std::numeric_limits<long long>::max();
        json::Value v = json::Value::object();
        v.set("max", big);
        v.set("min", std::numeric_limits<long long>::min());
        v.set("params", 405853388800LL);
        v.set("odd", 9007199254740993LL); // 2^53 + 1: not representable as a double
        const json::ParseResult r = json::parse(v.dump(2));
        QVERIFY(r);
        QCOMPARE(static_cast<qint64>(r.value->find("max")->asInt()), static_cast<qint64>(big));
        QCOMPARE(static_cast<qint64>(r.value->find("min")->asInt()), static_cast<qint64>(std::numeric_limits<long long>::min()));
        QCOMPARE(static_cast<qint64>(r.value->find("odd")->asInt()), Q_INT64_C(9007199254740993));
        QVERIFY(*r.value == v);
        QVERIFY(json::Value(9007199254740993LL) != json::Value(9007199254740992LL));
    }

    // Reading a non-integer as an integer truncates and saturates (a plain
    // conversion of 1e300 to int64 is undefined behaviour).
    void asIntSaturates()
    {
        const json::ParseResult r = json::parse("[1e300, -1e300, 2.7, -2.7, 9.3e18, -9.3e18, 1e2]");
        QVERIFY(r);
        const json::Array& a = r.value->asArray();
        QCOMPARE(static_cast<qint64>(a[0].asInt()), std::numeric_limits<qint64>::max());
        QCOMPARE(static_cast<qint64>(a[1].asInt()), std::numeric_limits<qint64>::min());
        QCOMPARE(static_cast<qint64>(a[2].asInt()), Q_INT64_C(2));
        QCOMPARE(static_cast<qint64>(a[3].asInt()), Q_INT64_C(-2));
        QCOMPARE(static_cast<qint64>(a[4].asInt()), std::numeric_limits<qint64>::max());
        QCOMPARE(static_cast<qint64>(a[5].asInt()), std::numeric_limits<qint64>::min());
        QCOMPARE(static_cast<qint64>(a[6].asInt()), Q_INT64_C(100));
        QCOMPARE(static_cast<qint64>(json::Value(std::numeric_limits<double>::quiet_NaN()).asInt()), Q_INT64_C(0));
    }

    void nonFiniteWritesNull()
    {
        QCOMPARE(q(json::Value(std::numeric_limits<double>::infinity()).dump()), QStringLiteral("null"));
        QCOMPARE(q(json::Value(std::numeric_limits<double>::quiet_NaN()).dump()), QStringLiteral("null"));
    }

    void escapes()
    {
        std::string all;
        for (int c = 0; c < 0x20; ++c) all += static_cast<char>(c);
        all += "\"\\/";
        std::string out;
        json::appendQuoted(out, all);
        // (Plain literals here: moc mis-reads raw strings that hold \" sequences.)
        QCOMPARE(q(out), QStringLiteral("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                                        "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\\"\\\\/\""));
        const json::ParseResult back = json::parse(out);
        QVERIFY(back);
        QCOMPARE(back.value->asString().size(), all.size());
        QVERIFY(back.value->asString() == all);

        const json::ParseResult r = json::parse("\"a\\/b\\\"c\\\\d\\b\\f\\n\\r\\t\"");
        QVERIFY(r);
        QVERIFY(r.value->asString() == std::string("a/b\"c\\d\b\f\n\r\t"));
    }

    void unicode()
    {
        const json::ParseResult r = json::parse(R"(["caf\u00e9", "\u4e2d", "\ud83d\ude00", "\u0041\u00DF", "raw é 中 😀"])");
        QVERIFY(r);
        const json::Array& a = r.value->asArray();
        QCOMPARE(q(a[0].asString()), QStringLiteral("caf\u00e9"));
        QCOMPARE(q(a[1].asString()), QString(QChar(0x4e2d)));
        QCOMPARE(a[2].asString(), std::string("\xF0\x9F\x98\x80")); // U+1F600 as 4 UTF-8 bytes
        QCOMPARE(q(a[3].asString()), QStringLiteral("A\u00df"));
        QCOMPARE(q(a[4].asString()), QString::fromUtf8("raw é 中 😀"));
        // Non-ASCII text is written as UTF-8, not escaped, and reads back the same.
        QCOMPARE(a[4].dump(), std::string("\"raw é 中 😀\""));
    }

    void roundTripCorpus()
    {
        const std::string text = sbtest::readText(sbtest::dataPath(QStringLiteral("json/roundtrip.json")));
        const json::ParseResult r = json::parse(text);
        QVERIFY2(r, r.error.toString().c_str());
        for (int indent : {-1, 0, 2, 4}) {
            const json::ParseResult again = json::parse(r.value->dump(indent));
            QVERIFY2(again, again.error.toString().c_str());
            QVERIFY(*again.value == *r.value);
            QCOMPARE(again.value->dump(indent), r.value->dump(indent));
        }
        // Objects keep insertion order.
        const json::Object& order = r.value->find("order")->asObject();
        QCOMPARE(q(order[0].first + order[1].first + order[2].first), QStringLiteral("zam"));
        QCOMPARE(q(r.value->find("order")->dump()), QStringLiteral(R"({"z":1,"a":2,"m":3})"));
        QVERIFY(r.value->find("escapes")->asString().find('\0') != std::string::npos);
    }

    void compactAndPretty()
    {
        json::Value v = json::Value::object();
        v.set("shape", json::Value(json::Array{4096, 128256}));
        v.set("name", "wq");
        v.set("list", json::Value(json::Array{json::Value::object()}));
        QCOMPARE(q(v.dump()), QStringLiteral(R"({"shape":[4096,128256],"name":"wq","list":[{}]})"));
        QCOMPARE(q(v.dump(2)), QStringLiteral("{\n  \"shape\": [4096, 128256],\n  \"name\": \"wq\",\n  \"list\": [\n    {}\n  ]\n}"));
    }

    void nesting()
    {
        std::string ok(256, '[');
        ok += std::string(256, ']');
        QVERIFY(json::parse(ok));
        std::string deep(100000, '[');
        const json::ParseResult r = json::parse(deep);
        QVERIFY(!r);
        QVERIFY(q(r.error.message).contains(QStringLiteral("nesting deeper than 256")));
        std::string objects;
        for (int i = 0; i < 5000; ++i) objects += "{\"a\":";
        QVERIFY(!json::parse(objects));
        std::string limit(257, '[');
        limit += std::string(257, ']');
        QVERIFY(json::parse(limit)); // 257 arrays: the innermost value sits at depth 256
        QVERIFY(!json::parse("[" + limit + "]"));
        QVERIFY(json::parse("[1]", 1));
        QVERIFY(!json::parse("[[1]]", 1));
    }

    // Repeated keys are refused in objects of any size (small ones are
    // scanned, large ones hashed), naming the key where it repeats.
    void duplicateKeysRefused()
    {
        for (int n : {2, 15, 16, 17, 1000, 100000}) {
            std::string text = "{\n";
            for (int i = 0; i < n; ++i) text += "\"key" + std::to_string(i) + "\": " + std::to_string(i) + ",\n";
            QVERIFY2(json::parse(text + "\"last\": 0}"), qPrintable(QString::number(n)));
            const json::ParseResult r = json::parse(text + " \"key" + std::to_string(n / 2) + "\": 0}");
            QVERIFY(!r);
            QCOMPARE(q(r.error.message), QStringLiteral("duplicate key \"key%1\"").arg(n / 2));
            QCOMPARE(r.error.line, n + 2);
            QCOMPARE(r.error.column, 2);
        }
        // A large object's repeat is found when the object ends, yet reported
        // before a later syntax error, in it or in an object nested in it.
        std::string big = "{";
        for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\": 0, ";
        // (The third repeats in a small nested object first, so that one is reported.)
        for (const std::string& tail : {std::string("\"k50\": 1, \"x\" 2}"), std::string("\"k50\": {\"y\": [1, }}"),
                                        std::string("\"z\": {\"k50\": 1, \"k50\": 2}, \"k50\": 3}")}) {
            const json::ParseResult bad = json::parse(big + tail);
            QVERIFY(!bad);
            QCOMPARE(q(bad.error.message), QStringLiteral("duplicate key \"k50\""));
            const std::size_t at = tail[1] == 'z' ? tail.find("\"k50\": 2") : 0;
            QCOMPARE(static_cast<std::size_t>(bad.error.column), big.size() + at + 1);
        }
        // The same key in different objects is fine.
        QVERIFY(json::parse(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})"));
        // A very long key is shortened in the message.
        const std::string longKey(1000, 'k');
        const json::ParseResult r = json::parse("{\"" + longKey + "\": 1, \"" + longKey + "\": 2}");
        QVERIFY(!r);
        QVERIFY2(r.error.message.size() < 120, r.error.message.c_str());
        QVERIFY(q(r.error.message).startsWith(QStringLiteral("duplicate key \"kkkk")));
    }

    // Every well-formed UTF-8 boundary case reads back byte for byte.
    void utf8Boundaries()
    {
        for (const char* bytes : {"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
                                  "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
            const json::ParseResult r = json::parse(std::string("[\"") + bytes + "\"]");
            QVERIFY2(r, r.error.toString().c_str());
            QCOMPARE(r.value->asArray()[0].asString(), std::string(bytes));
        }
        // Columns count characters, not bytes.
        const json::ParseResult r = json::parse("[\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\", x]");
        QVERIFY(!r);
        QCOMPARE(r.error.column, 9);
    }

    void setKeepsPositionAndCopiesAreIndependent()
    {
        json::Value v = json::Value::object();
        v.set("x", 1);
        v.set("y", 2);
        v.set("x", 3);
        QCOMPARE(q(v.dump()), QStringLiteral(R"({"x":3,"y":2})"));
        json::Value copy = v;
        copy.set("y", "changed");
        copy.set("z", json::Value::array());
        copy.find("z"); // reading does not detach
        QCOMPARE(q(v.dump()), QStringLiteral(R"({"x":3,"y":2})"));
        QCOMPARE(q(copy.dump()), QStringLiteral(R"({"x":3,"y":"changed","z":[]})"));
        json::Value arr = json::Value::array();
        arr.push(1);
        json::Value arr2 = arr;
        arr2.push(2);
        QCOMPARE(static_cast<int>(arr.size()), 1);
        QCOMPARE(static_cast<int>(arr2.size()), 2);
    }

    void typesAndAccessors()
    {
        const json::ParseResult r = json::parse(R"({"n": null, "b": false, "s": "x", "a": [1], "o": {}})");
        QVERIFY(r);
        const json::Value& v = *r.value;
        QVERIFY(v.find("n")->isNull());
        QVERIFY(v.find("b")->isBool() && !v.find("b")->asBool());
        QVERIFY(v.find("s")->isString());
        QVERIFY(v.find("a")->isArray() && v.find("a")->size() == 1);
        QVERIFY(v.find("o")->isObject() && v.find("o")->size() == 0);
        QVERIFY(v.find("missing") == nullptr);
        QVERIFY(v.find("a")->find("x") == nullptr); // not an object
        QVERIFY(v.find("s")->asArray().empty());     // wrong type reads as empty
        QVERIFY(json::Value(1) != json::Value("1"));
        QVERIFY(json::Value(1) == json::Value(1.0)); // same number, however written
    }

    void whitespace()
    {
        QVERIFY(json::parse(" \t\r\n{ \"a\" :\n[ 1 , 2 ]\r\n}\n "));
        QVERIFY(!json::parse("\v{}"));
    }
};

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"
