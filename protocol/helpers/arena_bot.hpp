// arena_bot.hpp: a tiny helper for writing an arena bot in C++ (C++17, this
// one header, nothing to install). Copy it beside your bot. It speaks
// protocol version 1 (see ../PROTOCOL.md) and calls your function for every
// decision:
//
//     #include "arena_bot.hpp"
//
//     int main() {
//         return arena::run("first_choice", {"slyyde"},
//             [](const arena::Json& state, const arena::Json& actions,
//                long long timeout_ms, std::mt19937_64& rng) { return actions[0]; });
//     }
//
// Your function gets the state, the offered actions (a JSON array), the time
// it has in milliseconds and `rng`, a generator seeded from each game's seed
// (use it and your bot plays the same game the same way every time). Return
// one of the offered actions: return the element itself, as above, and it is
// sent back exactly as it came. Pass a fourth argument, a function taking the
// event, to ask for and receive every event of the game. `example_bot.cpp`
// beside this file is a complete bot.
//
// JSON: arena::Json is a minimal reader and writer, enough for the protocol
// and no more: objects, arrays, strings (UTF-8, with every escape), numbers,
// true, false and null. A number keeps the text it came in, so `1` stays `1`
// and `1.0` stays `1.0` (the referee tells them apart); `as_int()` and
// `as_double()` read it. It is not a general JSON library: it checks what
// it parses and throws std::runtime_error on anything else, and it is not
// made for speed. For more, use a JSON library of your choice instead.
//
// Build it as a folder bot: `bots/my_bot/` holding this file, your source, the
// compiled program, and `bot.json` with {"command": ["./my_bot"]}; for
// example `g++ -std=c++17 -O2 -o my_bot my_bot.cpp` (add `-static` for a
// program that runs on a machine without your compiler's libraries, such as
// a Dask worker). docs/how-to/compiled-bots.md says what the box offers.

#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace arena {

class Json {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object };

    Json() = default;  // null
    Json(bool value) : kind_(Kind::Bool), flag_(value) {}
    Json(int value) : Json(static_cast<long long>(value)) {}
    Json(long long value) : kind_(Kind::Number), text_(std::to_string(value)) {}
    Json(const char* value) : kind_(Kind::String), text_(value) {}
    Json(std::string value) : kind_(Kind::String), text_(std::move(value)) {}

    static Json array() { Json made; made.kind_ = Kind::Array; return made; }
    static Json object() { Json made; made.kind_ = Kind::Object; return made; }
    // A number from its JSON text, kept as it is ("3", "-0.5", "1e9").
    static Json number(std::string text) {
        Json made;
        made.kind_ = Kind::Number;
        made.text_ = std::move(text);
        return made;
    }

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::Null; }

    bool as_bool() const { expect(Kind::Bool, "a boolean"); return flag_; }
    long long as_int() const {
        expect(Kind::Number, "a number");
        std::size_t used = 0;
        long long value = std::stoll(text_, &used);
        if (used != text_.size()) fail("expected an integer, got " + text_);
        return value;
    }
    double as_double() const { expect(Kind::Number, "a number"); return std::stod(text_); }
    // A number's JSON text, as it came (seeds go up to 2^63 - 1: std::stoull reads them).
    const std::string& number_text() const { expect(Kind::Number, "a number"); return text_; }
    const std::string& as_string() const { expect(Kind::String, "a string"); return text_; }

    // Arrays and objects: their elements (an object's values, in order).
    std::size_t size() const { expect_container(); return items_.size(); }
    const std::vector<Json>& items() const { expect_container(); return items_; }
    const Json& operator[](std::size_t index) const {
        expect(Kind::Array, "an array");
        if (index >= items_.size()) fail("index " + std::to_string(index) + " out of range");
        return items_[index];
    }
    void push_back(Json value) { expect(Kind::Array, "an array"); items_.push_back(std::move(value)); }

    // Objects: their keys, in order; a member by key.
    const std::vector<std::string>& keys() const { expect(Kind::Object, "an object"); return keys_; }
    const Json* find(const std::string& key) const {
        expect(Kind::Object, "an object");
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] == key) return &items_[i];
        return nullptr;
    }
    bool contains(const std::string& key) const { return find(key) != nullptr; }
    const Json& operator[](const std::string& key) const {
        const Json* found = find(key);
        if (!found) fail("no key \"" + key + "\"");
        return *found;
    }
    void set(const std::string& key, Json value) {
        expect(Kind::Object, "an object");
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] == key) { items_[i] = std::move(value); return; }
        keys_.push_back(key);
        items_.push_back(std::move(value));
    }

    // The value as one line of compact JSON.
    std::string dump() const {
        std::string out;
        write(out);
        return out;
    }

    // One JSON value from text (surrounding spaces allowed); throws
    // std::runtime_error saying where the text is not JSON.
    static Json parse(const std::string& text) {
        Parser parser{text, 0};
        Json value = parser.value(0);
        parser.spaces();
        if (parser.at != text.size()) parser.fail("text after the value");
        return value;
    }

private:
    Kind kind_ = Kind::Null;
    bool flag_ = false;
    std::string text_;                // a number's text or a string's contents
    std::vector<Json> items_;         // an array's elements, an object's values
    std::vector<std::string> keys_;   // an object's keys

    [[noreturn]] static void fail(const std::string& why) { throw std::runtime_error("arena::Json: " + why); }
    void expect(Kind kind, const char* what) const {
        if (kind_ != kind) fail(std::string("expected ") + what + ", got " + dump());
    }
    void expect_container() const {
        if (kind_ != Kind::Array && kind_ != Kind::Object) fail("expected an array or an object, got " + dump());
    }

    static void write_string(std::string& out, const std::string& text) {
        static const char* hex = "0123456789abcdef";
        out += '"';
        for (unsigned char c : text) {
            switch (c) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                default:
                    if (c < 0x20) {
                        out += "\\u00";
                        out += hex[c >> 4];
                        out += hex[c & 15];
                    } else {
                        out += static_cast<char>(c);  // UTF-8 goes out as it is
                    }
            }
        }
        out += '"';
    }

    void write(std::string& out) const {
        switch (kind_) {
            case Kind::Null: out += "null"; break;
            case Kind::Bool: out += flag_ ? "true" : "false"; break;
            case Kind::Number: out += text_; break;
            case Kind::String: write_string(out, text_); break;
            case Kind::Array:
                out += '[';
                for (std::size_t i = 0; i < items_.size(); ++i) {
                    if (i) out += ',';
                    items_[i].write(out);
                }
                out += ']';
                break;
            case Kind::Object:
                out += '{';
                for (std::size_t i = 0; i < items_.size(); ++i) {
                    if (i) out += ',';
                    write_string(out, keys_[i]);
                    out += ':';
                    items_[i].write(out);
                }
                out += '}';
                break;
        }
    }

    struct Parser {
        const std::string& text;
        std::size_t at;

        [[noreturn]] void fail(const std::string& why) const {
            throw std::runtime_error("arena::Json: not JSON at character " + std::to_string(at) + ": " + why);
        }
        void spaces() {
            while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
                ++at;
        }
        bool take(char c) {
            spaces();
            if (at < text.size() && text[at] == c) { ++at; return true; }
            return false;
        }
        void literal(const char* word) {
            for (const char* c = word; *c; ++c, ++at)
                if (at >= text.size() || text[at] != *c) fail(std::string("expected ") + word);
        }
        Json value(int depth) {
            if (depth > 256) fail("nested too deeply");
            spaces();
            if (at >= text.size()) fail("expected a value");
            char c = text[at];
            if (c == '{') return object(depth);
            if (c == '[') return array(depth);
            if (c == '"') return Json(string());
            if (c == 't') { literal("true"); return Json(true); }
            if (c == 'f') { literal("false"); return Json(false); }
            if (c == 'n') { literal("null"); return Json(); }
            return number();
        }
        Json object(int depth) {
            Json made = Json::object();
            ++at;
            if (take('}')) return made;
            do {
                spaces();
                if (at >= text.size() || text[at] != '"') fail("expected a key");
                std::string key = string();
                if (!take(':')) fail("expected ':'");
                made.keys_.push_back(std::move(key));
                made.items_.push_back(value(depth + 1));
            } while (take(','));
            if (!take('}')) fail("expected ',' or '}'");
            return made;
        }
        Json array(int depth) {
            Json made = Json::array();
            ++at;
            if (take(']')) return made;
            do {
                made.items_.push_back(value(depth + 1));
            } while (take(','));
            if (!take(']')) fail("expected ',' or ']'");
            return made;
        }
        bool digits() {
            std::size_t start = at;
            while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
            return at > start;
        }
        Json number() {
            std::size_t start = at;
            if (text[at] == '-') ++at;
            if (at < text.size() && text[at] == '0') ++at;
            else if (!digits()) fail("expected a value");
            if (at < text.size() && text[at] == '.') { ++at; if (!digits()) fail("expected digits after '.'"); }
            if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
                ++at;
                if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
                if (!digits()) fail("expected an exponent");
            }
            return Json::number(text.substr(start, at - start));
        }
        unsigned hex4() {
            if (at + 4 > text.size()) fail("expected four hex digits");
            unsigned value = 0;
            for (int i = 0; i < 4; ++i) {
                char c = text[at++];
                value <<= 4;
                if (c >= '0' && c <= '9') value |= c - '0';
                else if (c >= 'a' && c <= 'f') value |= c - 'a' + 10;
                else if (c >= 'A' && c <= 'F') value |= c - 'A' + 10;
                else fail("expected a hex digit");
            }
            return value;
        }
        static void utf8(std::string& out, unsigned code) {
            if (code < 0x80) {
                out += static_cast<char>(code);
            } else if (code < 0x800) {
                out += static_cast<char>(0xC0 | (code >> 6));
                out += static_cast<char>(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                out += static_cast<char>(0xE0 | (code >> 12));
                out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (code & 0x3F));
            } else {
                out += static_cast<char>(0xF0 | (code >> 18));
                out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
                out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (code & 0x3F));
            }
        }
        std::string string() {
            std::string out;
            ++at;  // the opening quote
            while (true) {
                if (at >= text.size()) fail("unterminated string");
                unsigned char c = static_cast<unsigned char>(text[at++]);
                if (c == '"') return out;
                if (c < 0x20) fail("control character in a string");
                if (c != '\\') { out += static_cast<char>(c); continue; }
                if (at >= text.size()) fail("unterminated escape");
                char escape = text[at++];
                switch (escape) {
                    case '"': out += '"'; break;
                    case '\\': out += '\\'; break;
                    case '/': out += '/'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'n': out += '\n'; break;
                    case 'r': out += '\r'; break;
                    case 't': out += '\t'; break;
                    case 'u': {
                        unsigned code = hex4();
                        if (code >= 0xD800 && code < 0xDC00 && at + 6 <= text.size() && text[at] == '\\' &&
                            text[at + 1] == 'u') {
                            std::size_t back = at;
                            at += 2;
                            unsigned low = hex4();
                            if (low >= 0xDC00 && low < 0xE000) code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                            else at = back;
                        }
                        utf8(out, code);
                        break;
                    }
                    default: fail("unknown escape");
                }
            }
        }
    };
};

using Choose = std::function<Json(const Json& state, const Json& actions, long long timeout_ms, std::mt19937_64& rng)>;
using OnUpdate = std::function<void(const Json& event)>;

inline void send(const Json& message) {
    std::cout << message.dump() << '\n' << std::flush;  // flush every line: PROTOCOL.md, "Flush every line"
}

// Answer the referee until it says bye or closes our input; returns the
// exit status for main: 0, or 1 after saying on stderr what went wrong.
inline int run(const std::string& name, const std::vector<std::string>& games, Choose choose,
               OnUpdate on_update = nullptr) {
    std::mt19937_64 rng;
    std::string line;
    try {
        while (std::getline(std::cin, line)) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            Json message = Json::parse(line);
            const Json* kind = message.find("type");
            const std::string type = kind && kind->kind() == Json::Kind::String ? kind->as_string() : "";
            if (type == "hello") {
                Json answer = Json::object(), offered = Json::array();
                for (const std::string& game : games) offered.push_back(game);
                answer.set("type", "hello");
                answer.set("name", name);
                answer.set("games", offered);
                answer.set("updates", static_cast<bool>(on_update));
                send(answer);
            } else if (type == "game_start") {
                rng.seed(std::stoull(message["seed"].number_text()));
            } else if (type == "decide") {
                Json answer = Json::object();
                answer.set("type", "action");
                answer.set("action", choose(message["state"], message["actions"],
                                            message["timeout_ms"].as_int(), rng));
                send(answer);
            } else if (type == "update" && on_update) {
                on_update(message["event"]);
            } else if (type == "bye") {
                return 0;
            }  // game_end and anything newer: information only
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "arena_bot.hpp: " << error.what() << std::endl;
        return 1;
    }
}

}  // namespace arena
