"""How the app is served: connections and request bodies (:mod:`.bodies`,
:mod:`.gthread`), the child processes of claims and PDFs (:mod:`.workers`),
rate limits (:mod:`.limits`), security headers and the session (:mod:`.hardening`),
the warm-up before gunicorn forks (:mod:`.warm`), the rendered pieces of pages
kept between requests (:mod:`.fragments`) and the scripts and style sheets sent
minified (:mod:`.assets`)."""
