"""What the bank's own pages and its callers do, one module a job: browsing (the listing
with facets and orders, a public question, the home page's summary), answering (concept
and numeric attempts), drafts and calibration. Views call these and only render; callers
import from the module that owns a function. What needs graded work or sittings (practice
counts, coverage, the editorial) is the practice app's."""
