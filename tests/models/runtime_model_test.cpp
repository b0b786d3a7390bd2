#include <doctest/doctest.h>
#include "models/runtime_model.h"
TEST_CASE("placeholder") { CHECK(true); }
