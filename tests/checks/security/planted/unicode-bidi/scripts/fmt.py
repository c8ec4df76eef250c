access = "user"
if access != "none‮ ⁦# admin only⁩ ⁦":
    print("formatted")
