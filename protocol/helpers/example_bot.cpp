// A complete arena bot in C++ on arena_bot.hpp: in Slyyde it takes the move
// that goes furthest (the diagonal or the roll, whichever lands on the higher
// square); everywhere else it picks one of the offered actions at random,
// from the generator the helper seeds from each game's seed.
//
// As a folder bot, `bots/example_bot/` holding this file, arena_bot.hpp, the
// compiled program and bot.json, {"command": ["./example_bot"]}:
//
//     g++ -std=c++17 -O2 -o example_bot example_bot.cpp
//
// Every file of the folder, the program included, is part of the bot's
// version: rebuild it and it is rated as a new version.

#include "arena_bot.hpp"

namespace {

// The offered action that goes furthest in Slyyde, or -1 if none says where
// it goes (a back-6 choice names a seat, not a square).
long long furthest(const arena::Json& actions) {
    long long best = -1, best_to = -1;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const arena::Json* to = actions[i].find("to");
        if (to && to->as_int() > best_to) {
            best = static_cast<long long>(i);
            best_to = to->as_int();
        }
    }
    return best;
}

}  // namespace

int main() {
    return arena::run("example_cpp", {"ciclovia", "detour", "roundabout", "slyyde"},
        [](const arena::Json& state, const arena::Json& actions, long long /*timeout_ms*/,
           std::mt19937_64& rng) -> arena::Json {
            if (state["game"].as_string() == "slyyde") {
                long long chosen = furthest(actions);
                if (chosen >= 0) return actions[static_cast<std::size_t>(chosen)];
            }
            std::uniform_int_distribution<std::size_t> pick(0, actions.size() - 1);
            return actions[pick(rng)];
        });
}
