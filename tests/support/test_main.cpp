// doctest main shared by all perfplan test executables. Exits 77 (CTest: skipped) when the
// executable declared PERFPLAN_REQUIRE_SHARED_DATA() and ../shared/data is absent.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "tests/support/test_support.h"

int main(int argc, char** argv) {
  if (perfplan::testing::SharedDataRequired() && !perfplan::testing::SharedDataAvailable()) {
    std::printf("SKIPPED: this suite reads the real public data, and %s does not exist\n",
                perfplan::testing::SharedDataDir().c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
