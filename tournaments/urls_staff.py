from django.urls import path

app_name = "staff"
urlpatterns = []
