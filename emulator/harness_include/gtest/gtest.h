// A gtest-compatible test runner, written for cotbuilder (clean room, from the googletest user documentation): enough
// of the API kernel unit tests use to build and run unchanged - TEST / TEST_F, testing::Test with SetUp / TearDown /
// SetUpTestCase / TearDownTestCase, EXPECT_* / ASSERT_* with streamed messages, GTEST_SKIP, environments,
// InitGoogleTest / RUN_ALL_TESTS, --gtest_filter and --gtest_list_tests.
//
// Why not googletest itself: verify builds every test against the emulator on any machine without a package manager
// step; a header-only runner keeps that to one -I folder. Each test also reports one machine-readable line on stderr,
// `COTBUILDER_GTEST {"test":"Suite.Name","status":"passed|failed|skipped","failures":N,"first":"..."}`: the
// assertions are evidence for the verifier, never its verdict.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
// googletest's port layer includes these POSIX headers on Linux; UTs call getcwd / get_current_dir_name / stat
// with no include of their own (hicann ops-math strided_slice_assign_v2)
#include <sys/stat.h>
#include <unistd.h>

namespace testing {

class Message {
public:
    Message() = default;
    template <typename T>
    Message& operator<<(const T& v) {
        ss_ << v;
        return *this;
    }
    Message& operator<<(std::ostream& (*f)(std::ostream&)) {
        ss_ << f;
        return *this;
    }
    std::string GetString() const { return ss_.str(); }

private:
    std::stringstream ss_;
};

class AssertionResult {
public:
    explicit AssertionResult(bool ok, std::string msg = "") : ok_(ok), msg_(std::move(msg)) {}
    explicit operator bool() const { return ok_; }
    const std::string& message() const { return msg_; }
    template <typename T>
    AssertionResult& operator<<(const T& v) {
        std::stringstream ss;
        ss << v;
        msg_ += ss.str();
        return *this;
    }

private:
    bool ok_;
    std::string msg_;
};
inline AssertionResult AssertionSuccess() { return AssertionResult(true); }
inline AssertionResult AssertionFailure() { return AssertionResult(false); }

class Test {
public:
    virtual ~Test() = default;
    virtual void SetUp() {}
    virtual void TearDown() {}
    static void SetUpTestCase() {}
    static void TearDownTestCase() {}
    static void SetUpTestSuite() {}
    static void TearDownTestSuite() {}
    virtual void TestBody() = 0;
};

template <typename T>
class TestWithParam : public Test {
public:
    using ParamType = T;
    const T& GetParam() const { return *param_; }
    static const T* param_;
};
template <typename T>
const T* TestWithParam<T>::param_ = nullptr;

class Environment {
public:
    virtual ~Environment() = default;
    virtual void SetUp() {}
    virtual void TearDown() {}
};

namespace internal {

struct TestInfo {
    std::string suite, name;
    std::function<Test*()> make;
    void (*suite_setup)();
    void (*suite_teardown)();
    std::string full() const { return suite + "." + name; }
};

struct State {
    std::vector<TestInfo> tests;
    std::vector<Environment*> envs;
    std::string filter = "*";
    bool list = false;
    // the running test
    int failures = 0;
    std::string first_failure;
    bool skipped = false;
};
inline State& state() {
    static State s;
    return s;
}

inline bool Register(const char* suite, const char* name, std::function<Test*()> make, void (*setup)(),
                     void (*teardown)()) {
    state().tests.push_back({suite, name, std::move(make), setup, teardown});
    return true;
}

inline void RecordFailure(const char* file, int line, const std::string& what) {
    auto& s = state();
    s.failures++;
    std::string msg = std::string(file) + ":" + std::to_string(line) + ": Failure\n" + what;
    if (s.first_failure.empty()) s.first_failure = msg;
    std::fprintf(stdout, "%s\n", msg.c_str());
    std::fflush(stdout);
}

// `Reporter(...) = Message() << extra`: records the failure with any streamed text.
class Reporter {
public:
    Reporter(const char* file, int line, std::string what) : file_(file), line_(line), what_(std::move(what)) {}
    void operator=(const Message& m) const {
        std::string extra = m.GetString();
        RecordFailure(file_, line_, what_ + (extra.empty() ? "" : "\n" + extra));
    }

private:
    const char* file_;
    int line_;
    std::string what_;
};

class Skipper {
public:
    void operator=(const Message& m) const {
        state().skipped = true;
        std::fprintf(stdout, "Skipped: %s\n", m.GetString().c_str());
    }
};

template <typename T, typename = void>
struct Printable : std::false_type {};
template <typename T>
struct Printable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};

template <typename T>
std::string Show(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(v));
    } else if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
        std::stringstream ss;
        ss << static_cast<const void*>(v);
        return ss.str();
    } else if constexpr (Printable<T>::value) {
        std::stringstream ss;
        if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>)
            ss << (int)v;
        else
            ss << v;
        return ss.str();
    } else {
        return "<" + std::to_string(sizeof(T)) + "-byte object>";
    }
}

template <typename A, typename B, typename Op>
AssertionResult Compare(const char* ea, const char* eb, const A& a, const B& b, Op op, const char* op_text) {
    if (op(a, b)) return AssertionSuccess();
    return AssertionResult(false, std::string("Expected: (") + ea + ") " + op_text + " (" + eb + "), actual: " +
                                      Show(a) + " vs " + Show(b));
}

// Integer comparisons between signed and unsigned operands compare the values (gtest would warn, not fail).
template <typename A, typename B>
bool Eq(const A& a, const B& b) {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&
                  !std::is_same_v<B, bool>) {
        if constexpr (std::is_signed_v<A> != std::is_signed_v<B>) {
            if ((std::is_signed_v<A> && a < 0) || (std::is_signed_v<B> && b < 0)) return false;
            return static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
        } else {
            return a == b;
        }
    } else if constexpr (std::is_null_pointer_v<A> || std::is_null_pointer_v<B>) {
        return a == b;
    } else {
        return a == b;
    }
}
template <typename A, typename B>
bool Lt(const A& a, const B& b) {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_signed_v<A> != std::is_signed_v<B>) {
        if (std::is_signed_v<A> && a < 0) return true;
        if (std::is_signed_v<B> && b < 0) return false;
        return static_cast<unsigned long long>(a) < static_cast<unsigned long long>(b);
    } else {
        return a < b;
    }
}

// Floats equal within 4 units in the last place, as gtest's EXPECT_FLOAT_EQ / EXPECT_DOUBLE_EQ.
template <typename F>
bool AlmostEq(F a, F b) {
    if (std::isnan(a) || std::isnan(b)) return false;
    if (a == b) return true;
    using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
    U ua, ub;
    std::memcpy(&ua, &a, sizeof(F));
    std::memcpy(&ub, &b, sizeof(F));
    const U sign = U(1) << (sizeof(F) * 8 - 1);
    auto biased = [sign](U u) { return (u & sign) ? ~u + 1 : sign | u; };
    U x = biased(ua), y = biased(ub);
    return (x > y ? x - y : y - x) <= 4;
}

inline bool Matches(const std::string& pat, const std::string& s) {
    size_t p = 0, i = 0, star = std::string::npos, mark = 0;
    while (i < s.size()) {
        if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i])) {
            ++p;
            ++i;
        } else if (p < pat.size() && pat[p] == '*') {
            star = p++;
            mark = i;
        } else if (star != std::string::npos) {
            p = star + 1;
            i = ++mark;
        } else {
            return false;
        }
    }
    while (p < pat.size() && pat[p] == '*') ++p;
    return p == pat.size();
}

// gtest filter syntax: positive patterns separated by ':', then '-' and negative patterns.
inline bool Selected(const std::string& filter, const std::string& name) {
    std::string pos = filter, neg;
    size_t dash = filter.find('-');
    if (dash != std::string::npos) {
        pos = filter.substr(0, dash);
        neg = filter.substr(dash + 1);
    }
    auto any = [&](const std::string& list) {
        size_t start = 0;
        while (start <= list.size()) {
            size_t end = list.find(':', start);
            std::string one = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
            if (!one.empty() && Matches(one, name)) return true;
            if (end == std::string::npos) break;
            start = end + 1;
        }
        return false;
    };
    return (pos.empty() || any(pos)) && !(!neg.empty() && any(neg));
}

inline std::string JsonEscape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if ((unsigned char)c < 0x20) {
            o += ' ';
        } else {
            o += c;
        }
    }
    return o;
}

}  // namespace internal

inline void InitGoogleTest(int* argc, char** argv) {
    auto& s = internal::state();
    int out = 1;
    for (int i = 1; argc && i < *argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--gtest_filter=", 0) == 0) {
            s.filter = a.substr(15);
        } else if (a == "--gtest_list_tests") {
            s.list = true;
        } else if (a.rfind("--gtest_", 0) == 0) {
            // other gtest flags (color, output, repeat) change nothing here
        } else {
            argv[out++] = argv[i];
        }
    }
    if (argc) *argc = out;
}
inline void InitGoogleTest() {}

inline Environment* AddGlobalTestEnvironment(Environment* env) {
    internal::state().envs.push_back(env);
    return env;
}

inline int RunAllTests() {
    auto& s = internal::state();
    if (s.list) {
        std::string last;
        for (const auto& t : s.tests) {
            if (!internal::Selected(s.filter, t.full())) continue;
            if (t.suite != last) std::printf("%s.\n", t.suite.c_str());
            std::printf("  %s\n", t.name.c_str());
            last = t.suite;
        }
        return 0;
    }
    for (auto* e : s.envs) e->SetUp();
    int failed = 0, ran = 0;
    for (size_t i = 0; i < s.tests.size(); ++i) {
        const auto& t = s.tests[i];
        if (!internal::Selected(s.filter, t.full())) continue;
        bool first_of_suite = true;
        for (size_t j = 0; j < i; ++j)
            if (s.tests[j].suite == t.suite && internal::Selected(s.filter, s.tests[j].full())) first_of_suite = false;
        bool last_of_suite = true;
        for (size_t j = i + 1; j < s.tests.size(); ++j)
            if (s.tests[j].suite == t.suite && internal::Selected(s.filter, s.tests[j].full())) last_of_suite = false;
        if (first_of_suite && t.suite_setup) t.suite_setup();
        s.failures = 0;
        s.first_failure.clear();
        s.skipped = false;
        std::printf("[ RUN      ] %s\n", t.full().c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "COTBUILDER_GTEST_START {\"test\":\"%s\"}\n", internal::JsonEscape(t.full()).c_str());
        std::fflush(stderr);
        std::unique_ptr<Test> obj(t.make());
        obj->SetUp();
        if (s.failures == 0 && !s.skipped) obj->TestBody();
        obj->TearDown();
        obj.reset();
        if (last_of_suite && t.suite_teardown) t.suite_teardown();
        ++ran;
        const char* status = s.skipped ? "skipped" : (s.failures ? "failed" : "passed");
        if (s.failures) ++failed;
        std::printf("[ %8s ] %s\n", s.skipped ? "SKIPPED" : (s.failures ? "FAILED" : "OK"), t.full().c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "COTBUILDER_GTEST {\"test\":\"%s\",\"status\":\"%s\",\"failures\":%d,\"first\":\"%s\"}\n",
                     internal::JsonEscape(t.full()).c_str(), status, s.failures,
                     internal::JsonEscape(s.first_failure.substr(0, 500)).c_str());
        std::fflush(stderr);
    }
    for (auto it = s.envs.rbegin(); it != s.envs.rend(); ++it) (*it)->TearDown();
    std::printf("[==========] %d tests ran, %d failed.\n", ran, failed);
    return failed ? 1 : 0;
}

}  // namespace testing

#define RUN_ALL_TESTS() ::testing::RunAllTests()

#define CBGT_CLASS_(suite, name) suite##_##name##_Test
#define CBGT_TEST_(suite, name, parent)                                                                          \
    class CBGT_CLASS_(suite, name) : public parent {                                                             \
    public:                                                                                                       \
        void TestBody() override;                                                                                 \
        static bool registered_;                                                                                  \
    };                                                                                                            \
    bool CBGT_CLASS_(suite, name)::registered_ = ::testing::internal::Register(                                 \
        #suite, #name, [] { return static_cast<::testing::Test*>(new CBGT_CLASS_(suite, name)()); },             \
        &parent::SetUpTestCase == &::testing::Test::SetUpTestCase ? &parent::SetUpTestSuite : &parent::SetUpTestCase, \
        &parent::TearDownTestCase == &::testing::Test::TearDownTestCase ? &parent::TearDownTestSuite             \
                                                                        : &parent::TearDownTestCase);             \
    void CBGT_CLASS_(suite, name)::TestBody()

#define TEST(suite, name) CBGT_TEST_(suite, name, ::testing::Test)
#define TEST_F(fixture, name) CBGT_TEST_(fixture, name, fixture)
#define GTEST_TEST(suite, name) TEST(suite, name)

#define CBGT_CHECK_(result, fatal)                                                            \
    if (const ::testing::AssertionResult cbgt_r = (result)) {                                  \
    } else                                                                                     \
        fatal ::testing::internal::Reporter(__FILE__, __LINE__, cbgt_r.message()) = ::testing::Message()
#define CBGT_FATAL_ return
#define CBGT_NONFATAL_

#define CBGT_CMP_(a, b, op, text) \
    ::testing::internal::Compare(#a, #b, (a), (b), [](const auto& x, const auto& y) { return op; }, text)

#define EXPECT_EQ(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Eq(x, y), "=="), CBGT_NONFATAL_)
#define EXPECT_NE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Eq(x, y), "!="), CBGT_NONFATAL_)
#define EXPECT_LT(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Lt(x, y), "<"), CBGT_NONFATAL_)
#define EXPECT_LE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Lt(y, x), "<="), CBGT_NONFATAL_)
#define EXPECT_GT(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Lt(y, x), ">"), CBGT_NONFATAL_)
#define EXPECT_GE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Lt(x, y), ">="), CBGT_NONFATAL_)
#define ASSERT_EQ(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Eq(x, y), "=="), CBGT_FATAL_)
#define ASSERT_NE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Eq(x, y), "!="), CBGT_FATAL_)
#define ASSERT_LT(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Lt(x, y), "<"), CBGT_FATAL_)
#define ASSERT_LE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Lt(y, x), "<="), CBGT_FATAL_)
#define ASSERT_GT(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, ::testing::internal::Lt(y, x), ">"), CBGT_FATAL_)
#define ASSERT_GE(a, b) CBGT_CHECK_(CBGT_CMP_(a, b, !::testing::internal::Lt(x, y), ">="), CBGT_FATAL_)

#define CBGT_BOOL_(cond, want, text) \
    ::testing::AssertionResult(static_cast<bool>(cond) == (want), std::string("Value of: ") + #cond + "\n  Expected: " + text)
#define EXPECT_TRUE(c) CBGT_CHECK_(CBGT_BOOL_(c, true, "true"), CBGT_NONFATAL_)
#define EXPECT_FALSE(c) CBGT_CHECK_(CBGT_BOOL_(c, false, "false"), CBGT_NONFATAL_)
#define ASSERT_TRUE(c) CBGT_CHECK_(CBGT_BOOL_(c, true, "true"), CBGT_FATAL_)
#define ASSERT_FALSE(c) CBGT_CHECK_(CBGT_BOOL_(c, false, "false"), CBGT_FATAL_)

#define CBGT_NEAR_(a, b, tol)                                                                                  \
    ::testing::AssertionResult(std::fabs((double)(a) - (double)(b)) <= (double)(tol),                         \
                               std::string("The difference between ") + #a + " and " + #b + " exceeds " + #tol)
#define EXPECT_NEAR(a, b, tol) CBGT_CHECK_(CBGT_NEAR_(a, b, tol), CBGT_NONFATAL_)
#define ASSERT_NEAR(a, b, tol) CBGT_CHECK_(CBGT_NEAR_(a, b, tol), CBGT_FATAL_)
#define CBGT_FEQ_(T, a, b) \
    ::testing::AssertionResult(::testing::internal::AlmostEq<T>((T)(a), (T)(b)), std::string("Expected equality of ") + #a + " and " + #b)
#define EXPECT_FLOAT_EQ(a, b) CBGT_CHECK_(CBGT_FEQ_(float, a, b), CBGT_NONFATAL_)
#define ASSERT_FLOAT_EQ(a, b) CBGT_CHECK_(CBGT_FEQ_(float, a, b), CBGT_FATAL_)
#define EXPECT_DOUBLE_EQ(a, b) CBGT_CHECK_(CBGT_FEQ_(double, a, b), CBGT_NONFATAL_)
#define ASSERT_DOUBLE_EQ(a, b) CBGT_CHECK_(CBGT_FEQ_(double, a, b), CBGT_FATAL_)
#define CBGT_STREQ_(a, b, want)                                                                                \
    ::testing::AssertionResult((std::strcmp((a) ? (a) : "", (b) ? (b) : "") == 0) == (want),                  \
                               std::string("Expected: ") + #a + (want ? " == " : " != ") + #b)
#define EXPECT_STREQ(a, b) CBGT_CHECK_(CBGT_STREQ_(a, b, true), CBGT_NONFATAL_)
#define EXPECT_STRNE(a, b) CBGT_CHECK_(CBGT_STREQ_(a, b, false), CBGT_NONFATAL_)
#define ASSERT_STREQ(a, b) CBGT_CHECK_(CBGT_STREQ_(a, b, true), CBGT_FATAL_)
#define ASSERT_STRNE(a, b) CBGT_CHECK_(CBGT_STREQ_(a, b, false), CBGT_FATAL_)
#define FAIL() return ::testing::internal::Reporter(__FILE__, __LINE__, "Failed") = ::testing::Message()
#define ADD_FAILURE() ::testing::internal::Reporter(__FILE__, __LINE__, "Failed") = ::testing::Message()
#define SUCCEED() ::testing::Message()
#define GTEST_SKIP() return ::testing::internal::Skipper() = ::testing::Message()
