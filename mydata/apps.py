from django.apps import AppConfig


class MyDataConfig(AppConfig):
    name = "mydata"
    label = "mydata"
    verbose_name = "Your data: export and account deletion"
