// Boost's graph algorithms, formatting, flat containers and string algorithms, with a few of
// Eigen's integer matrices: generic code of other libraries in the same program.
#include <boost/algorithm/string.hpp>
#include <boost/container/flat_map.hpp>
#include <boost/format.hpp>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/topological_sort.hpp>
#include <Eigen/Dense>
#include <string>
#include <vector>

std::string graphs_part(int n) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                      boost::property<boost::edge_weight_t, int>>;
  Graph g(n);
  for (int i = 0; i < n; ++i)
    for (int k = 1; k <= 3; ++k)
      if (i + k < n) boost::add_edge(i, i + k, (i * k) % 7 + 1, g);
  std::vector<int> distance(boost::num_vertices(g));
  boost::dijkstra_shortest_paths(g, 0, boost::distance_map(&distance[0]));
  std::vector<int> order;
  boost::topological_sort(g, std::back_inserter(order));
  boost::container::flat_map<std::string, int> by_key;
  for (int i = 0; i < n; ++i) by_key[boost::str(boost::format("k%03d") % (i * 37 % n))] += distance[i];
  std::string joined;
  for (const auto &kv : by_key) joined += boost::str(boost::format("%s=%d;") % kv.first % kv.second);
  std::vector<std::string> parts;
  boost::split(parts, joined, boost::is_any_of(";"));
  Eigen::Matrix<int, 3, 3> mi = Eigen::Matrix<int, 3, 3>::Constant(n);
  Eigen::Matrix<long, 3, 3> ml = Eigen::Matrix<long, 3, 3>::Constant(n);
  return boost::to_upper_copy(joined.substr(0, 120)) +
         boost::str(boost::format(" %d %d %d %d\n") % parts.size() % order.front() %
                    (mi * mi).sum() % (ml * ml).sum());
}
