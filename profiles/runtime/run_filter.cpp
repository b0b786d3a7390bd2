#include "profiles/runtime/run_filter.h"

#include <charconv>
#include <cmath>

#include "profiles/problem.h"

namespace perfplan::profiles {
namespace {

bool ParseNumber(const std::string& text, double* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(*out);
}

struct Token {
  std::string text;
  std::size_t column = 0;  // 1-based position in the expression
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Splits into terms at the whitespace-delimited word "and" (outside quotes).
std::vector<Token> SplitTerms(const std::string& e) {
  std::vector<Token> terms;
  std::size_t start = 0;
  char quote = 0;
  for (std::size_t i = 0; i <= e.size(); ++i) {
    if (i < e.size() && quote) {
      if (e[i] == quote) quote = 0;
      continue;
    }
    if (i < e.size() && (e[i] == '\'' || e[i] == '"')) {
      quote = e[i];
      continue;
    }
    const bool at_and = i + 3 <= e.size() && e.compare(i, 3, "and") == 0 &&
                        (i == 0 || IsSpace(e[i - 1])) && (i + 3 == e.size() || IsSpace(e[i + 3]));
    if (i == e.size() || at_and) {
      terms.push_back({e.substr(start, i - start), start + 1});
      start = i + 3;
      i += 2;
    }
  }
  return terms;
}

Token Trim(const Token& t) {
  std::size_t b = 0, e = t.text.size();
  while (b < e && IsSpace(t.text[b])) ++b;
  while (e > b && IsSpace(t.text[e - 1])) --e;
  return {t.text.substr(b, e - b), t.column + b};
}

}  // namespace

Result<RowFilter> ParseRowFilter(const std::string& expression,
                                 const std::vector<std::string>& columns,
                                 const std::string& field) {
  RowFilter filter;
  const std::vector<Token> terms = SplitTerms(expression);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const Token term = Trim(terms[k]);
    const std::string where = "column " + std::to_string(term.column) + ": ";
    if (term.text.empty()) {
      return Status::InvalidField(
          field,
          where + "empty term " + std::to_string(k + 1) +
              "; expected 'column OP value' terms joined by 'and', OP one of = != < <= > >=");
    }
    const std::size_t op_at = term.text.find_first_of("=!<>");
    if (op_at == std::string::npos) {
      return Status::InvalidField(field,
                                  where + "term '" + term.text +
                                      "' has no operator; expected 'column OP value' with OP one "
                                      "of = != < <= > >=");
    }
    RowFilter::Term t;
    const std::string op_text = term.text.substr(
        op_at, op_at + 1 < term.text.size() && term.text[op_at + 1] == '=' ? 2 : 1);
    if (op_text == "=")
      t.op = CompareOp::kEq;
    else if (op_text == "!=")
      t.op = CompareOp::kNe;
    else if (op_text == "<")
      t.op = CompareOp::kLt;
    else if (op_text == "<=")
      t.op = CompareOp::kLe;
    else if (op_text == ">")
      t.op = CompareOp::kGt;
    else if (op_text == ">=")
      t.op = CompareOp::kGe;
    else {
      return Status::InvalidField(field, "column " + std::to_string(term.column + op_at) +
                                             ": unknown operator '" + op_text +
                                             "'; expected one of = != < <= > >=");
    }
    const Token name = Trim({term.text.substr(0, op_at), term.column});
    const Token value =
        Trim({term.text.substr(op_at + op_text.size()), term.column + op_at + op_text.size()});
    if (name.text.empty()) {
      return Status::InvalidField(field, "column " + std::to_string(term.column) + ": term '" +
                                             term.text + "' has no column name before '" + op_text +
                                             "'");
    }
    bool found = false;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == name.text) {
        t.column_index = c;
        found = true;
      }
    }
    if (!found) {
      std::vector<std::string_view> candidates(columns.begin(), columns.end());
      const std::string suggestion = SuggestClosest(name.text, candidates);
      return Status::InvalidField(
          field, "column " + std::to_string(name.column) + ": unknown column '" + name.text + "'" +
                     (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
    }
    t.column = name.text;
    std::string v = value.text;
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) {
      v = v.substr(1, v.size() - 2);
    } else if (v.empty() || v.find_first_of("=!<> \t") != std::string::npos) {
      return Status::InvalidField(field, "column " + std::to_string(value.column) +
                                             ": bad value '" + value.text + "' after '" + t.column +
                                             " " + op_text +
                                             "'; expected one value (quote it to hold spaces)");
    }
    t.value = v;
    t.value_is_number = ParseNumber(v, &t.number);
    if (!t.value_is_number && t.op != CompareOp::kEq && t.op != CompareOp::kNe) {
      return Status::InvalidField(field, "column " + std::to_string(value.column) + ": '" +
                                             op_text + "' needs a number, got '" + v + "'");
    }
    filter.terms.push_back(t);
  }
  return filter;
}

bool MatchesRow(const RowFilter& filter, const std::vector<std::string>& cells) {
  for (const RowFilter::Term& t : filter.terms) {
    const std::string& cell = cells[t.column_index];
    double number = 0;
    int cmp;
    if (t.value_is_number && ParseNumber(cell, &number)) {
      cmp = number < t.number ? -1 : (number > t.number ? 1 : 0);
    } else {
      if (t.op != CompareOp::kEq && t.op != CompareOp::kNe) return false;
      cmp = cell == t.value ? 0 : 1;
    }
    bool ok = false;
    switch (t.op) {
      case CompareOp::kEq:
        ok = cmp == 0;
        break;
      case CompareOp::kNe:
        ok = cmp != 0;
        break;
      case CompareOp::kLt:
        ok = cmp < 0;
        break;
      case CompareOp::kLe:
        ok = cmp <= 0;
        break;
      case CompareOp::kGt:
        ok = cmp > 0;
        break;
      case CompareOp::kGe:
        ok = cmp >= 0;
        break;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace perfplan::profiles
