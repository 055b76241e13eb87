// A small JSON value for the unit-test helpers op projects ship (they build platform descriptions from JSON text),
// written for cotbuilder (clean room, from the nlohmann/json README's interface): parse, type queries, object and
// array access, get<T>(), implicit conversion to string and numbers, dump(). Why not the real library: it is a
// third-party package the machine may not have; only this much of its interface is used by the code verify builds.
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nlohmann {

class json {
public:
    enum class value_t : uint8_t {
        null,
        object,
        array,
        string,
        boolean,
        number_integer,
        number_unsigned,
        number_float,
        binary,
        discarded
    };
    struct parse_error : std::runtime_error {
        using std::runtime_error::runtime_error;
    };
    struct type_error : std::runtime_error {
        using std::runtime_error::runtime_error;
    };
    struct out_of_range : std::runtime_error {
        using std::runtime_error::runtime_error;
    };

    json() = default;
    json(std::nullptr_t) {}
    json(bool b) : t_(value_t::boolean), b_(b) {}
    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    json(T v) : t_(std::is_signed_v<T> ? value_t::number_integer : value_t::number_unsigned), i_((int64_t)v), f_((double)v) {}
    template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
    json(T v) : t_(value_t::number_float), i_((int64_t)v), f_((double)v) {}
    json(const char* s) : t_(value_t::string), s_(s ? s : "") {}
    json(const std::string& s) : t_(value_t::string), s_(s) {}

    static json parse(const std::string& text) {
        size_t at = 0;
        json v = read(text, at);
        skip(text, at);
        if (at != text.size()) throw parse_error("json: trailing characters");
        return v;
    }
    static json parse(const char* text) { return parse(std::string(text ? text : "")); }
    static json object() {
        json j;
        j.t_ = value_t::object;
        return j;
    }
    static json array() {
        json j;
        j.t_ = value_t::array;
        return j;
    }

    value_t type() const { return t_; }
    bool is_null() const { return t_ == value_t::null; }
    bool is_object() const { return t_ == value_t::object; }
    bool is_array() const { return t_ == value_t::array; }
    bool is_string() const { return t_ == value_t::string; }
    bool is_boolean() const { return t_ == value_t::boolean; }
    bool is_number_integer() const { return t_ == value_t::number_integer || t_ == value_t::number_unsigned; }
    bool is_number_unsigned() const { return t_ == value_t::number_unsigned; }
    bool is_number_float() const { return t_ == value_t::number_float; }
    bool is_number() const { return is_number_integer() || is_number_float(); }
    bool contains(const std::string& key) const { return is_object() && obj_.count(key) != 0; }
    size_t size() const { return is_object() ? obj_.size() : is_array() ? arr_.size() : is_null() ? 0 : 1; }
    bool empty() const { return size() == 0; }

    json& operator[](const std::string& key) {
        if (is_null()) t_ = value_t::object;
        if (!is_object()) throw type_error("json: not an object");
        if (!obj_.count(key)) keys_.push_back(key);
        return obj_[key];
    }
    json& operator[](const char* key) { return (*this)[std::string(key)]; }
    const json& operator[](const std::string& key) const { return at(key); }
    const json& operator[](const char* key) const { return at(std::string(key)); }
    json& operator[](size_t i) {
        if (!is_array()) throw type_error("json: not an array");
        return arr_.at(i);
    }
    const json& operator[](size_t i) const {
        if (!is_array()) throw type_error("json: not an array");
        return arr_.at(i);
    }
    const json& at(const std::string& key) const {
        auto it = obj_.find(key);
        if (!is_object() || it == obj_.end()) throw out_of_range("json: no key " + key);
        return it->second;
    }
    void push_back(const json& v) {
        if (is_null()) t_ = value_t::array;
        arr_.push_back(v);
    }

    template <typename T>
    T get() const {
        if constexpr (std::is_same_v<T, bool>) {
            if (!is_boolean()) throw type_error("json: not a boolean");
            return b_;
        } else if constexpr (std::is_integral_v<T>) {
            if (!is_number()) throw type_error("json: not a number");
            return (T)(is_number_float() ? (int64_t)f_ : i_);
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!is_number()) throw type_error("json: not a number");
            return (T)(is_number_float() ? f_ : (double)i_);
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!is_string()) throw type_error("json: not a string");
            return s_;
        } else {
            static_assert(std::is_same_v<T, json>, "json::get: unsupported type");
            return *this;
        }
    }
    template <typename T>
    void get_to(T& v) const {
        v = get<T>();
    }
    operator std::string() const { return get<std::string>(); }
    // Not to character types: `someString = j;` must pick the std::string conversion alone (std::string's
    // operator=(char) would make it ambiguous), as the real library's conversion excludes them.
    template <typename T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, char> &&
                                               !std::is_same_v<T, signed char> && !std::is_same_v<T, unsigned char> &&
                                               !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char16_t> &&
                                               !std::is_same_v<T, char32_t>,
                                           int> = 0>
    operator T() const {
        return get<T>();
    }

    std::string dump() const {
        std::ostringstream o;
        switch (t_) {
            case value_t::null: return "null";
            case value_t::boolean: return b_ ? "true" : "false";
            case value_t::number_integer: case value_t::number_unsigned: return std::to_string(i_);
            case value_t::number_float: o << f_; return o.str();
            case value_t::string: return "\"" + s_ + "\"";
            case value_t::array: {
                o << "[";
                for (size_t i = 0; i < arr_.size(); ++i) o << (i ? "," : "") << arr_[i].dump();
                o << "]";
                return o.str();
            }
            case value_t::object: {
                o << "{";
                for (size_t i = 0; i < keys_.size(); ++i) o << (i ? "," : "") << "\"" << keys_[i] << "\":" << obj_.at(keys_[i]).dump();
                o << "}";
                return o.str();
            }
            default: return "null";
        }
    }

private:
    value_t t_ = value_t::null;
    bool b_ = false;
    int64_t i_ = 0;
    double f_ = 0;
    std::string s_;
    std::vector<json> arr_;
    std::map<std::string, json> obj_;
    std::vector<std::string> keys_;

    static void skip(const std::string& t, size_t& at) {
        while (at < t.size() && (t[at] == ' ' || t[at] == '\n' || t[at] == '\r' || t[at] == '\t')) ++at;
    }
    static json read(const std::string& t, size_t& at) {
        skip(t, at);
        if (at >= t.size()) throw parse_error("json: unexpected end");
        char c = t[at];
        if (c == '{') {
            json j = object();
            ++at;
            skip(t, at);
            if (at < t.size() && t[at] == '}') {
                ++at;
                return j;
            }
            while (true) {
                skip(t, at);
                json key = read(t, at);
                if (!key.is_string()) throw parse_error("json: object key is not a string");
                skip(t, at);
                if (at >= t.size() || t[at] != ':') throw parse_error("json: expected ':'");
                ++at;
                j[key.s_] = read(t, at);
                skip(t, at);
                if (at < t.size() && t[at] == ',') {
                    ++at;
                    continue;
                }
                if (at < t.size() && t[at] == '}') {
                    ++at;
                    return j;
                }
                throw parse_error("json: expected ',' or '}'");
            }
        }
        if (c == '[') {
            json j = array();
            ++at;
            skip(t, at);
            if (at < t.size() && t[at] == ']') {
                ++at;
                return j;
            }
            while (true) {
                j.arr_.push_back(read(t, at));
                skip(t, at);
                if (at < t.size() && t[at] == ',') {
                    ++at;
                    continue;
                }
                if (at < t.size() && t[at] == ']') {
                    ++at;
                    return j;
                }
                throw parse_error("json: expected ',' or ']'");
            }
        }
        if (c == '"') {
            std::string s;
            ++at;
            while (at < t.size() && t[at] != '"') {
                if (t[at] == '\\' && at + 1 < t.size()) {
                    char e = t[++at];
                    s += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                } else {
                    s += t[at];
                }
                ++at;
            }
            if (at >= t.size()) throw parse_error("json: unterminated string");
            ++at;
            return json(s);
        }
        if (t.compare(at, 4, "true") == 0) {
            at += 4;
            return json(true);
        }
        if (t.compare(at, 5, "false") == 0) {
            at += 5;
            return json(false);
        }
        if (t.compare(at, 4, "null") == 0) {
            at += 4;
            return json();
        }
        size_t start = at;
        bool is_float = false;
        if (t[at] == '-' || t[at] == '+') ++at;
        while (at < t.size() && (std::isdigit((unsigned char)t[at]) || t[at] == '.' || t[at] == 'e' || t[at] == 'E' ||
                                 t[at] == '-' || t[at] == '+')) {
            is_float = is_float || t[at] == '.' || t[at] == 'e' || t[at] == 'E';
            ++at;
        }
        if (start == at) throw parse_error("json: unexpected character");
        std::string num = t.substr(start, at - start);
        if (is_float) return json(std::strtod(num.c_str(), nullptr));
        if (num[0] == '-') return json((int64_t)std::strtoll(num.c_str(), nullptr, 10));
        return json((uint64_t)std::strtoull(num.c_str(), nullptr, 10));
    }
};

}  // namespace nlohmann
