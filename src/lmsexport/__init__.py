"""lmsexport: quiz content written once as JSON, exported to QTI 2.1, Canvas, Moodle XML and GIFT."""

__version__ = "0.1.0"
