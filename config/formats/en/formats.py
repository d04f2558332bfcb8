# The short and the long form of a date, and of a date with its time (config/moments.py adds
# the time zone). 24-hour clock: schedules are written that way (cron, the form's time field).
SHORT_DATE_FORMAT = "j M Y"
DATE_FORMAT = "l, j F Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
DATETIME_FORMAT = "l, j F Y, H:i"
