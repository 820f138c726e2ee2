#include "common.hpp"
int main() {
  std::ostringstream out;
  regex_part(out); containers_part(out); shapes_part(out);
  std::cout << out.str();
  return 0;
}
