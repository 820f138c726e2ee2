#include "common.hpp"
void regex_part(std::ostream &out) {
  std::string text = "alpha=1, beta=22, gamma=333; delta = 4444 and eps=5";
  std::regex kv(R"((\w+)\s*=\s*(\d+))");
  std::map<std::string, long> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kv); it != std::sregex_iterator(); ++it)
    found[(*it)[1]] = std::stol((*it)[2]);
  for (auto &[k, v] : found) out << k << "->" << v << "\n";
  out << std::regex_replace(text, std::regex("[aeiou]"), "*") << "\n";
  std::wregex wr(L"b+");
  std::wstring ws = L"abbbc";
  out << std::regex_search(ws, wr) << std::regex_match("2024-11-24", std::regex(R"(\d{4}-\d{2}-\d{2})")) << "\n";
  std::smatch m;
  std::string date = "on 2026-11-24 at noon";
  if (std::regex_search(date, m, std::regex(R"((\d+)-(\d+)-(\d+))", std::regex::ECMAScript | std::regex::icase)))
    out << m[1] << "/" << m[2] << "/" << m[3] << " prefix=" << m.prefix() << "\n";
  Stats<std::string> ss; for (auto &[k, v] : found) ss.add(k);
  for (auto &s : ss.sorted()) out << s << ";";
  out << "\n";
}
