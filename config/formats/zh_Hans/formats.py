# 日期与日期时间的短格式和长格式（时区由 config/moments.py 加在后面）。
SHORT_DATE_FORMAT = "Y年n月j日"
DATE_FORMAT = "Y年n月j日 l"
SHORT_DATETIME_FORMAT = "Y年n月j日 H:i"
DATETIME_FORMAT = "Y年n月j日 l H:i"
