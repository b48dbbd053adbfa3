import DocentCore
print("docent")
