"""What the question pages do, one module a job: browsing (the list with facets, a
question's page, the home page's summary), answering (concept and numeric attempts),
drafts, calibration, coverage (the progress page's figures) and editorial. Views call
these and only render; callers import from the module that owns a function."""
