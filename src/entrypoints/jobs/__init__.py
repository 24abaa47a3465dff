"""The job engine: Celery workers and one beat run the work that happens later or on a clock
(core stays unaware of Celery). `catalogue` says what runs and when, `app` builds the Celery
application from the settings, `embedded` runs a worker and beat inside `coldchain serve`."""
