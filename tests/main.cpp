// The Catch2 runner of the umax-tests suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
