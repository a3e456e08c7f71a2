#!/bin/bash
# The calendar feed tests read the feed with Python's icalendar and
# recurring_ical_events, an iCalendar reader independent of the Go one.
# PyPI is not reachable from CI; Debian ships both (python3-icalendar,
# python3-recurring-ical-events) for the system Python, which the tests use
# when the first python3 on PATH lacks them.
set -e
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import icalendar, recurring_ical_events' 2>/dev/null; then
		exit 0
	fi
done
if ! apt-get install -y -q python3-icalendar python3-recurring-ical-events >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y -q python3-icalendar python3-recurring-ical-events >/dev/null
fi
