# Public topics, editions and reports arrive with the Public Topics issue.
