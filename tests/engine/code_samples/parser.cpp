// Parser for the query language.
#include <string>

namespace query {

/// A parsed query: its terms and operators.
class Query {
public:
    /// Parse the text into a query.
    explicit Query(const std::string& text);
    int size() const { return terms_.size(); }
private:
    std::vector<std::string> terms_;
};

/// Split the text on whitespace.
Query::Query(const std::string& text) {
    terms_ = split(text);
}

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

struct Token { int kind; };

}  // namespace query

TEST(QueryTest, SplitsOnWhitespace) {
    query::Query q("a b");
    EXPECT_EQ(q.size(), 2);
}
