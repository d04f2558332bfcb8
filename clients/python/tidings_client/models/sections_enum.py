from enum import StrEnum


class SectionsEnum(StrEnum):
    IT = "IT"
    경제 = "경제"
    과학 = "과학"
    국제 = "국제"
    문화 = "문화"
    사회 = "사회"
    생활 = "생활"
    스포츠 = "스포츠"
    연예 = "연예"
    오피니언 = "오피니언"
    정치 = "정치"

    def __str__(self) -> str:
        return str(self.value)
