from django.shortcuts import redirect, render


def home(request):
    if request.user.is_authenticated:
        return redirect("inbox:index")
    return render(request, "topics/home.html")
