from django.urls import path

app_name = "public"
urlpatterns = []
