#include "models/runtime_model.h"

#include <doctest/doctest.h>
TEST_CASE("placeholder") { CHECK(true); }
