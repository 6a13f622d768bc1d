from django.db import models


class Casino(models.Model):
    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="tables")
    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name
