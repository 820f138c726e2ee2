#include <iostream>
#include <string>
std::string linear_part(int seed);
std::string graphs_part(int n);
int main() {
  for (int seed = 1; seed < 6; ++seed) std::cout << linear_part(seed);
  for (int n = 10; n < 60; n += 13) std::cout << graphs_part(n);
  return 0;
}
