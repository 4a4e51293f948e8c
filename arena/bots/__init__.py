"""The sandboxed seat: finding bots, running one as a process under its
warden and limits, and speaking the JSON-lines protocol with it."""
